"""TFLite Micro's SHAPE Eval (shape.cc ShapeEval / ExtractShape), counted: the input's dims
written to the int32 output.

    for (int i = 0; i < input->dims->size; ++i) output_data[i] = input->dims->data[i];

arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 (ExtractShape compiled locally): LDR dims, LDR
size, CMP/BLE, SUBS, ADD, then LDR, STR (pre-indexed), CMP, BNE per dim.  The dims are the
model's (TFLM points into the flatbuffer), so they are read from the output's own values in
`case["dims"]` -- the loads are counted as stack-slot loads (no data region).  Not
calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bcc, cmp, ldr_sp, str_, sub


@kernel
def extract_shape(m, out, d0, d1, d2, d3, d4, d5, rank):
    cmp(m, 2, 2)                               # output->type != kTfLiteInt32
    bcc(m, False)
    ldr_sp(m)                                  # input->dims
    ldr_sp(m)                                  # dims->size
    cmp(m, rank, 0)
    bcc(m, rank <= 0)
    if rank > 0:
        sub(m, out, 4)
        add(m, 0, rank)
    for i in range(rank):
        ldr_sp(m)                              # ldr.w r2, [r3, #4]!
        d = d0 if i == 0 else d1 if i == 1 else d2 if i == 2 else d3 if i == 3 else \
            d4 if i == 4 else d5
        str_(m, out + 4 * i, d)                # str.w r2, [r1, #4]!
        cmp(m, i + 1, rank)
        bcc(m, i + 1 < rank)
    return 0


def run_reference(m, case, addr, tracer=None):
    dims = list(case["dims"]) + [0] * (6 - len(case["dims"]))
    run(extract_shape, m, addr["output"], *dims, len(case["dims"]), tracer=tracer)
    return ["ShapeEval", "ExtractShape"]
