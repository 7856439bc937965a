"""TFLite Micro's int8 ZEROS_LIKE (zeros_like.cc resetZeros<int8_t>) and FILL (fill.cc ->
reference_ops::Fill<int8_t>), counted.

arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 (both compiled locally, hosted, as TFLM builds):
resetZeros' zeroing loop becomes a call of memset(out, 0, n) (newlib's, ported in
armsim.kernels.libc); Fill's `output_data[i] = *value_data` stays a loop that reloads the
value every element (the two int8_t pointers may alias): LDRSB, STRB (pre-indexed), CMP,
BNE.  The flat size before them is RuntimeShape::FlatSize's loop.  A constant value (the
model's) is loaded as a stack-slot load.  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bcc, bl, cmp, ldrsb, ldrsb_sp, mov, strb, sub
from armsim.kernels.libc import memset
from armsim.kernels.tflm.activations import flat_size


@kernel
def zeros_like_s8(m, out, rank, size):
    flat_size(m, rank, 0)                      # MatchingFlatSize(input, output)
    cmp(m, size, 0)                            # resetZeros: for (i < num_elements)
    bcc(m, size <= 0)
    if size > 0:
        mov(m, 0)
        mov(m, out)
        bl(m)
        memset(m, out, 0, size)                # the loop, distributed into memset(out, 0, n)
    return 0


@kernel
def fill_s8(m, value_addr, value, out, rank, size):
    flat_size(m, rank, 0)                      # output_shape.FlatSize()
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size > 0:
        sub(m, out, 1)
        add(m, out, size)
    for i in range(size):
        if value_addr:
            v = ldrsb(m, value_addr)           # ldrsb.w r3, [r1]  (*value_data)
        else:
            ldrsb_sp(m)
            v = value
        strb(m, out + i, v)                    # strb.w r3, [r2, #1]!
        cmp(m, i + 1, size)
        bcc(m, i + 1 < size)
    return 0


def run_zeros_like(m, case, addr, tracer=None):
    run(zeros_like_s8, m, addr["output"], case["rank"], case["size"], tracer=tracer)
    return ["resetZeros<int8_t>", "memset"]


def run_fill(m, case, addr, tracer=None):
    value_addr = addr["inputs"][0] if addr.get("inputs") else 0
    run(fill_s8, m, value_addr, case.get("value", 0), addr["output"], case["rank"],
        case["size"], tracer=tracer)
    return ["reference_ops::Fill<int8_t>"]
