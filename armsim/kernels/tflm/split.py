"""TFLite Micro's int8 and int16 SPLIT and SPLIT_V (split.cc / split_v.cc SplitImpl<T>, T
int8_t or int16_t), counted.

    outer_size = prod(input dims before axis)          (int64)
    base_inner_size = prod(input dims after axis)      (int64)
    for k < outer_size:
      for i < output_count:
        t = GetEvalOutput(i); copy_size = output dim[axis] * base_inner_size
        copy copy_size bytes from input_ptr to t->data + k * copy_size; input_ptr += copy_size

SPLIT reads output 0's dim for every output (copy_size is the same); SPLIT_V each output's
own, after a first pass over the outputs summing their dims (split_size, for a DCHECK that
is compiled out; the loop is not).  The sequence follows the disassembly of SplitImpl
compiled locally with arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 (the 64-bit dim products
with UMULL/MLA, the byte loop LDRSB, STRB, CMP, BNE); SPLIT_V's summing loop is an
estimate.  int16 (`elem` 2) is the int8 port's structure with halfword accesses (LDRSH,
STRH) and 2-byte address steps.  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, asr, b, bcc, bl, cmp, ldr_sp, ldrd_sp, ldrsb, ldrsh, mla, mov,
                            mul, pop_pc, push, sbc, str_sp, strb, strd_sp, strh, sub, umull)
from armsim.kernels.tflm.eval_glue import GET_EVAL_OUTPUT
from armsim.kernels.tflm.pack import get_eval_tensor


@kernel
def split_prologue(m, rank, axis, per_output_dims, count):
    bl(m)
    push(m, 9)                                 # stmdb sp!, {r4-r11, lr}
    mov(m, 0)
    sub(m, 0, 20)                              # sub sp, #20
    for _ in range(4):
        mov(m, 0)
    ldr_sp(m)                                  # NumOutputs(node): node->outputs->size
    ldr_sp(m)
    get_eval_tensor(m, GET_EVAL_OUTPUT)        # output0
    ldr_sp(m)                                  # input->dims
    for _ in range(4):
        mov(m, 0)
    ldr_sp(m)
    ldr_sp(m)
    if per_output_dims:                        # SPLIT_V: split_size over every output
        for i in range(count):
            ldrd_sp(m)
            mov(m, i)
            get_eval_tensor(m, GET_EVAL_OUTPUT)
            ldr_sp(m)                          # ->dims->data[axis]
            ldr_sp(m)
            add(m, 0, 0)
            adc(m, 0, 0, 0)
            add(m, i, 1)
            cmp(m, i + 1, count)
            bcc(m, i + 1 < count)
    cmp(m, axis, 0)
    bcc(m, axis <= 0)
    if axis > 0:
        mov(m, 0)
        mov(m, 0)
        mov(m, 1)
        mov(m, 0)
        str_sp(m)
        mov(m, 0)
    for d in range(axis):                      # outer_size *= input_dims->data[i] (int64)
        ldr_sp(m)
        asr(m, d, 31)
        mul(m, d, d)
        mov(m, d)
        add(m, d, 1)
        mla(m, d, d, d)
        cmp(m, axis, d + 1)
        umull(m, d, d)
        add(m, d, d)
        bcc(m, d + 1 < axis)
    add(m, axis, 1)
    cmp(m, rank, axis + 1)
    if axis > 0:
        ldr_sp(m)
        mov(m, 0)
    bcc(m, rank <= axis + 1)
    if axis + 1 < rank:
        add(m, 0, 0)
        mov(m, 1)
    for d in range(axis + 1, rank):            # base_inner_size *= input_dims->data[i]
        ldr_sp(m)
        add(m, d, 1)
        cmp(m, rank, d + 1)
        umull(m, d, d)
        bcc(m, d + 1 < rank)
    return 0


@kernel
def split_output(m, dst, src, copy, i, count, elem):
    """One output's block of one outer step: GetEvalOutput(i), copy_size, the element loop
    (`elem` bytes each)."""
    mov(m, 0)
    mov(m, i)
    mov(m, 0)
    get_eval_tensor(m, GET_EVAL_OUTPUT)
    ldr_sp(m)                                  # output dims->data[axis]
    ldr_sp(m)                                  # t->data
    mul(m, copy, 1)                            # copy_size = dim * base_inner_size
    cmp(m, copy, 0)
    mul(m, copy, 1)                            # k * copy_size
    bcc(m, copy <= 0)
    if copy > 0:
        sub(m, 0, 1)
        add(m, 0, -1)
        add(m, 0, 0)
        add(m, 0, 0)
        sub(m, src, 1)
    for j in range(copy):
        if elem == 1:
            strb(m, dst + j, ldrsb(m, src + j))    # ldrsb.w r2, [r3, #1]!; strb.w r2, [r1, #1]!
        else:
            strh(m, dst + 2 * j, ldrsh(m, src + 2 * j))
        cmp(m, j + 1, copy)
        bcc(m, j + 1 < copy)
    add(m, i, 1)
    cmp(m, count, i + 1)
    add(m, src, elem * copy)                   # input_ptr += copy_size
    bcc(m, i + 1 < count)
    return 0


@kernel
def split_outer_step(m, k, outer, first):
    """The k loop's bookkeeping (64-bit counter compared with outer_size)."""
    if first:
        cmp(m, outer, 1)
        sbc(m, 0, 0, 1)
        ldr_sp(m)
        bcc(m, outer < 1)
        if outer >= 1:
            cmp(m, 0, 0)
            bcc(m, False)
            strd_sp(m)
            add(m, 0, 0)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
        return 0
    ldrd_sp(m)
    ldr_sp(m)
    add(m, k, 1)
    adc(m, 0, 0, 0)
    cmp(m, k + 1, outer)
    ldr_sp(m)
    sbc(m, 0, 0, 1)
    bcc(m, k + 1 >= outer)
    if k + 1 < outer:
        mov(m, k + 1)
        b(m)
    return 0


@kernel
def split_k_head(m):
    strd_sp(m)                                 # strd r3, r1, [sp]  (k, 64-bit)
    mov(m, 0)
    return 0


@kernel
def split_epilogue(m):
    mov(m, 0)
    add(m, 0, 20)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    outs = addr["outputs"]
    copies = case["copy_sizes"]
    outer = case["outer"]
    run(split_prologue, m, case["rank"], case["axis"], case["per_output_dims"], len(outs),
        tracer=tracer)
    run(split_outer_step, m, 0, outer, True, tracer=tracer)
    src = addr["input"]
    elem = case["elem"]
    for k in range(outer):
        run(split_k_head, m, tracer=tracer)
        for i, (dst, copy) in enumerate(zip(outs, copies)):
            run(split_output, m, dst + elem * k * copy, src, copy, i, len(outs), elem,
                tracer=tracer)
            src += elem * copy
        run(split_outer_step, m, k, outer, False, tracer=tracer)
    run(split_epilogue, m, tracer=tracer)
    return [f"SplitImpl<int{8 * elem}_t>", "GetEvalOutput"]
