"""TFLite Micro's int8 and int16 PACK and UNPACK (pack.cc PackImpl<T>, unpack.cc
UnpackImpl<T>, T int8_t or int16_t), counted.

    PackImpl:   for i < values_count: input_data = GetEvalInput(i)->data
                  for k < outer_size: copy copy_size bytes
                    from input_data + copy_size * k
                    to   output_data + k * values_count * copy_size + i * copy_size
    UnpackImpl: the same walk with input and output swapped (GetEvalOutput(i) per output).

outer_size multiplies the dims before axis, copy_size those after it (of the output for
PACK, of the input for UNPACK), and the other tensor's element count is computed too (its
DCHECK is compiled out, the loop is not).  The copy is the element loop `output_ptr[j] =
input_ptr[j]`, which arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 keeps as a byte loop (LDRSB,
STRB post/pre-indexed, CMP, BNE): the sequence below is read off the disassembly of PackImpl
compiled locally; UnpackImpl is taken to compile to the same shape.  The GetEvalInput /
GetEvalOutput calls inside the loops run the Eval glue functions (armsim.kernels.tflm.
eval_glue).  int16 (`elem` 2) is the int8 port's structure with halfword accesses (LDRSH,
STRH) and 2-byte address steps.  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, it, ldr_sp, ldrd_sp, ldrsb, ldrsh, mov, mul, pop_pc,
                            push, str_sp, strb, strh, sub)
from armsim.kernels.tflm.eval_glue import (GET_EVAL_INPUT, GET_EVAL_OUTPUT, GET_EVAL_TENSOR,
                                           MICRO_CONTEXT_GET_EVAL_TENSOR, glue_function)

_GET_EVAL_TENSOR_M4 = GET_EVAL_TENSOR[True]
_GET_EVAL_TENSOR_M3 = GET_EVAL_TENSOR[False]


@kernel(inline=True)
def get_eval_tensor(m, accessor):
    """tflite::micro::GetEvalInput / GetEvalOutput (`accessor` instructions) with the
    MicroContextGetEvalTensor -> GetEvalTensor calls under it."""
    glue_function(m, accessor)
    glue_function(m, MICRO_CONTEXT_GET_EVAL_TENSOR)
    glue_function(m, _GET_EVAL_TENSOR_M4 if m.dsp else _GET_EVAL_TENSOR_M3)


@kernel(inline=True)
def dims_product(m, first, last):
    """A loop multiplying dims first..last-1: LDR (pre-indexed), ADDS, CMP, MUL, BNE each."""
    for d in range(first, last):
        ldr_sp(m)
        add(m, d, 1)
        cmp(m, last, d + 1)
        mul(m, d, d)
        bcc(m, d + 1 < last)


@kernel(inline=True)
def copy_elements(m, dst, src, n, elem):
    """for (j < copy_size) output_ptr[j] = input_ptr[j]: CMP/BLE, two setup instructions,
    then LDRSB, STRB (int16, `elem` 2: LDRSH, STRH), CMP, BNE per element."""
    cmp(m, n, 0)
    bcc(m, n <= 0)
    if n > 0:
        add(m, src, 0)
        mov(m, dst)
    for j in range(n):
        if elem == 1:
            strb(m, dst + j, ldrsb(m, src + j))
        else:
            strh(m, dst + 2 * j, ldrsh(m, src + 2 * j))
        cmp(m, j + 1, n)
        bcc(m, j + 1 < n)


@kernel
def impl_prologue(m, rank, axis, negative_axis, other_rank):
    """PackImpl/UnpackImpl's entry up to the copy loops: frame, the first tensor access,
    the axis fix-up and the three dim products (`other_rank`: the input's for PACK, the
    output's for UNPACK)."""
    bl(m)
    push(m, 9)                                 # stmdb sp!, {r4-r11, lr}
    mov(m, 0)
    sub(m, 0, 12)                              # sub sp, #12
    mov(m, 0)
    ldr_sp(m)                                  # axis (stacked argument)
    str_sp(m)
    mov(m, 0)
    str_sp(m)
    get_eval_tensor(m, GET_EVAL_INPUT)         # input0 / output0
    ldr_sp(m)                                  # ->dims
    ldr_sp(m)                                  # dims->size
    cmp(m, negative_axis, 0)                   # if (axis < 0) axis += dimensions
    it(m, 0 if negative_axis else 1)
    if negative_axis:
        add(m, axis, rank)
    cmp(m, axis, 0)
    bcc(m, axis <= 0)
    mov(m, 0)
    mov(m, 1)
    dims_product(m, 0, axis)                   # outer_size
    add(m, axis, 1)
    cmp(m, rank, axis + 1)
    bcc(m, rank <= axis + 1)
    if axis + 1 < rank:
        add(m, axis, 0)
        add(m, axis, 1)
        add(m, 0, 0)
        mov(m, 1)
    dims_product(m, axis + 1, rank)            # copy_size
    dims_product(m, 0, other_rank)             # the other tensor's size (its DCHECK is off)
    return 0


@kernel
def copy_blocks(m, base_single, base_stacked, i, count, outer, copy, unpack, first, elem):
    """One tensor's blocks: for k < outer_size, copy copy_size elements between the single
    tensor (its own buffer, k * copy_size) and the stacked one (k * count * copy_size +
    i * copy_size).  `first`: the loop's setup before the first tensor."""
    if first:
        cmp(m, count, 0)
        ldr_sp(m)                              # output/input data
        bcc(m, count <= 0)
        mul(m, copy, count)
        mov(m, 0)
    ldrd_sp(m)                                 # context, node
    mov(m, i)
    get_eval_tensor(m, GET_EVAL_OUTPUT if unpack else GET_EVAL_INPUT)
    cmp(m, outer, 0)
    ldr_sp(m)                                  # t->data
    bcc(m, outer <= 0)
    if outer > 0:
        mov(m, 0)
        add(m, 0, -1)
        add(m, 0, copy)
    for k in range(outer):
        mov(m, k)
        single = base_single + elem * k * copy
        stacked = base_stacked + elem * (k * count * copy + i * copy)
        if unpack:
            copy_elements(m, single, stacked, copy, elem)
        else:
            copy_elements(m, stacked, single, copy, elem)
        add(m, k, 1)
        cmp(m, k + 1, outer)
        add(m, 0, 0)
        add(m, 0, 0)
        add(m, 0, 0)
        bcc(m, k + 1 < outer)
    add(m, i, 1)
    cmp(m, count, i + 1)
    add(m, 0, 0)
    bcc(m, i + 1 < count)
    return 0


@kernel
def impl_epilogue(m):
    mov(m, 0)                                  # return kTfLiteOk
    add(m, 0, 12)
    pop_pc(m, 9)
    return 0


def _run(m, case, singles, stacked, unpack, tracer):
    rank, axis = case["rank"], case["axis"]
    run(impl_prologue, m, rank, axis, case["negative_axis"], case["other_rank"],
        tracer=tracer)
    for i, base in enumerate(singles):
        run(copy_blocks, m, base, stacked, i, len(singles), case["outer"], case["copy"],
            unpack, i == 0, case["elem"], tracer=tracer)
    run(impl_epilogue, m, tracer=tracer)


def run_pack(m, case, addr, tracer=None):
    _run(m, case, addr["inputs"], addr["output"], False, tracer)
    return [f"PackImpl<int{8 * case['elem']}_t>", "GetEvalInput"]


def run_unpack(m, case, addr, tracer=None):
    _run(m, case, addr["outputs"], addr["input"], True, tracer)
    return [f"UnpackImpl<int{8 * case['elem']}_t>", "GetEvalOutput"]
