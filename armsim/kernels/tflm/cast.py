"""TFLite Micro's CAST between int8, int16 and int32 (cast.cc copyCast<FromT, ToT>: a
std::transform of static_cast), counted.

Each element is one sign-extending load of the input's width (LDRSB / LDRSH / LDR), one
store of the output's (STRB / STRH / STR: narrowing keeps the low bits, as static_cast
does), CMP and BNE, after MatchingFlatSize and the two type switches.  The loop shape is
that of the element copies compiled locally with arm-none-eabi-gcc 12.2 -O2 (memCopyN in
EXPAND_DIMS); each (from, to) pair was not compiled separately.  Not calibrated: no
measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bcc, bl, cmp, ldr, ldrsb, ldrsh, str_, strb, strh, sub
from armsim.kernels.tflm.activations import flat_size


@kernel
def cast(m, inp, out, rank, size, in_bytes, out_bytes):
    flat_size(m, rank, 0)                      # MatchingFlatSize(input, output)
    for _ in range(2):                         # switch (input->type), switch (out->type)
        cmp(m, in_bytes, out_bytes)
        bcc(m, True)
    bl(m)                                      # copyToTensor / copyCast
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size > 0:
        sub(m, inp, in_bytes)
        sub(m, out, out_bytes)
        add(m, inp, size * in_bytes)
    for i in range(size):
        if in_bytes == 1:
            v = ldrsb(m, inp + i)
        elif in_bytes == 2:
            v = ldrsh(m, inp + 2 * i)
        else:
            v = ldr(m, inp + 4 * i)
        if out_bytes == 1:
            strb(m, out + i, v)
        elif out_bytes == 2:
            strh(m, out + 2 * i, v)
        else:
            str_(m, out + 4 * i, v)
        cmp(m, i + 1, size)
        bcc(m, i + 1 < size)
    return 0


def run_reference(m, case, addr, tracer=None):
    run(cast, m, addr["input"], addr["output"], case["rank"], case["size"],
        case["in_bytes"], case["out_bytes"], tracer=tracer)
    return [f"copyCast<{case['from']}, {case['to']}>"]
