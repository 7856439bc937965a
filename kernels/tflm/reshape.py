"""TFLite Micro's reference RESHAPE / SQUEEZE Eval (reshape.cc EvalReshapeReference).

The op only changes the shape; the data is copied with memcpy when input and output are
different buffers (they are in TFLM's plan: the planner gives each tensor its own span):

    const size_t input_size_bytes = ElementCount(*input->dims) * TfLiteTypeSizeOf(input->type);
    if (input->data.raw != output->data.raw) memcpy(output->data.raw, input->data.raw, bytes);

The ElementCount/TfLiteTypeSizeOf calls are part of the Eval glue (kernels.tflm.eval_glue).
"""
from armsim.kernel import run
from armsim.ops import bl, cmp, bcc

from kernels import libc


def run_reference(m, case, addr, tracer=None):
    n = case["bytes"]
    cmp(m, addr["input"], addr["output"])     # if (input->data.raw != output->data.raw)
    bcc(m, addr["input"] == addr["output"])
    if addr["input"] != addr["output"]:
        bl(m)
        run(libc.memcpy, m, addr["output"], addr["input"], n, tracer=tracer)
    return ["EvalReshapeReference", "memcpy"]
