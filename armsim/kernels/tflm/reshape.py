"""TFLite Micro's reference RESHAPE / SQUEEZE Eval (reshape.cc EvalReshapeReference).

The op only changes the shape; the data is copied with memcpy when input and output are
different buffers (they are in TFLM's plan: the planner gives each tensor its own span):

    const size_t input_size_bytes = ElementCount(*input->dims) * TfLiteTypeSizeOf(input->type);
    if (input->data.raw != output->data.raw) memcpy(output->data.raw, input->data.raw, bytes);

The ElementCount/TfLiteTypeSizeOf calls are part of the Eval glue (armsim.kernels.tflm.eval_glue).
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import bcc, bl, cmp

from armsim.kernels.libc import memcpy


@kernel
def eval_reshape_copy(m, inp, out, nbytes):
    cmp(m, inp, out)                          # if (input->data.raw != output->data.raw)
    bcc(m, inp == out)
    if inp != out:
        bl(m)
        memcpy(m, out, inp, nbytes)      # memcpy(output, input, input_size_bytes)
    return 0


def run_reference(m, case, addr, tracer=None):
    run(eval_reshape_copy, m, addr["input"], addr["output"], case["bytes"], tracer=tracer)
    return ["EvalReshapeReference", "memcpy"]
