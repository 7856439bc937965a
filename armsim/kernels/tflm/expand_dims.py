"""TFLite Micro's EXPAND_DIMS Eval for int8 and int16 (expand_dims.cc ExpandDimsEval,
memCopyN<T>), counted.

    const int flat_size = ElementCount(*input->dims);
    memCopyN(GetTensorData<int8_t>(output), GetTensorData<int8_t>(input), flat_size);

memCopyN is a plain element loop; arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 keeps it as a
byte loop (no memcpy call): CMP/BLE, three SUBS and an ADD of setup, then LDRSB, STRB (both
pre-indexed), CMP, BNE per element -- read off the disassembly of the template compiled
locally.  ElementCount's dim loop (LDR, MUL, CMP, BNE per dim) is modelled on
RuntimeShape::FlatSize's code.  int16 (`elem` 2) is the int8 port's structure with halfword
accesses (LDRSH, STRH) and 2-byte steps.  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bcc, cmp, ldr_sp, ldrsb, ldrsh, mov, mul, strb, strh, sub


@kernel
def expand_dims_copy(m, inp, out, rank, size, elem):
    ldr_sp(m)                                  # dims->size
    n = mov(m, 1)
    cmp(m, rank, 0)
    bcc(m, rank <= 0)
    for d in range(rank):                      # ElementCount: result *= dims->data[i]
        ldr_sp(m)
        n = mul(m, n, 1)
        cmp(m, d + 1, rank)
        bcc(m, d + 1 < rank)
    cmp(m, size, 0)                            # memCopyN: for (i < num_elements)
    bcc(m, size <= 0)
    if size > 0:
        sub(m, size, 1)
        sub(m, inp, 1)
        sub(m, out, 1)
        add(m, inp, size)
    for i in range(size):
        if elem == 1:
            strb(m, out + i, ldrsb(m, inp + i))    # ldrsb.w r2, [r3, #1]!; strb.w r2, [r0, #1]!
        else:
            strh(m, out + 2 * i, ldrsh(m, inp + 2 * i))
        cmp(m, i + 1, size)
        bcc(m, i + 1 < size)
    return 0


def run_reference(m, case, addr, tracer=None):
    elem = case["elem"]
    run(expand_dims_copy, m, addr["input"], addr["output"], case["rank"], case["size"], elem,
        tracer=tracer)
    return ["ExpandDimsEval", f"memCopyN<int{8 * elem}_t>"]
