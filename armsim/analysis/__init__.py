"""What armsim tells about a run or a model: why a kernel path (`insight`), the quantization
spec (`lint`), instructions explained (`explain`), the HTML report (`report`), the trace-event
timeline (`timeline`)."""
