"""TFLite Micro's int8 / int16 MEAN and SUM and int8 REDUCE_MAX (reduce_common.cc, the
reference kernels of kernels/internal/reference/reduce.h), counted:

    MEAN, SUM   QuantizedMeanOrSum<T, int32_t> (EvalIntegerMean / EvalSumHelper, compute_sum
                false / true; there is no int8 special case for 4-D axes {1, 2}: that one is
                float only)
    REDUCE_MAX  ReduceGeneric<int8_t> with MinMaxReducerCompare's max (EvalMinMaxHelper)

Both clear the output (and QuantizedMeanOrSum its int32 temp_sum scratch buffer) over
CheckedElementCount(output dims), ResolveAxis the axis tensor (negative axes wrapped,
duplicates dropped) into the resolved_axis scratch buffer, then Reduce: input_iter (a
scratch buffer) walks the input with NextIndex, and each element is folded into
output[ReducedOutputOffset(input dims skipping the resolved axes)].  QuantizedMeanOrSum then
takes num_elements_in_axis (CheckedReducedElementCount), for MEAN folds 1 / n into the
multiplier (shift = min(63 - clz64(n), 32, 31 + output_shift); multiplier = (int64)multiplier
<< shift / n, an __aeabi_ldivmod call), and requantizes every sum with
MultiplyByQuantizedMultiplier(temp_sum - input_zp * n) + output_zp, clamped to T's range.

The port works on memory as the C does: the dims arrays (the tensors' TfLiteIntArray data),
the axis tensor, input_iter and resolved_axis are read and written with LDR / STR.  It is
transcribed, block by block, from gcc's disassembly of reduce.h's QuantizedMeanOrSum<int8_t,
int32_t> and ReduceGeneric<int8_t> with EvalMinMaxHelper's reducer choice (retyped with
TFLM's helpers, not committed) compiled with arm-none-eabi-g++ 12.2 -O2 -mcpu=cortex-m4
-mthumb -DNDEBUG.  Run on unicorn's Cortex-M4 (the same C, the same operands) it executes,
for MEAN (2, 3, 4, 5) over {1, 2} / {3} / {0, 3} (SUM), (3, 5) over {0, 1}, (1, 8, 8, 16)
over {1, 2} and REDUCE_MAX (2, 3, 4, 5) over {1, 2} / {0, 3}: 16714, 16657, 17179, 1575,
133168, 17183, 17422 instructions; this port counts 16506, 16525, 17026, 1371, 132960,
17179, 17420.  The difference is the libgcc 64-bit divisions (__aeabi_ldivmod: 65-75
instructions a call, data-dependent, one BL each here): without them the port is within
0.1 %.  MultiplyByQuantizedMultiplier is TFLM's compiled one (kernels/tflm/common.py).
Nothing is fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, asr, b, bcc, bl, blx, bx, cbnz, cbz, clz, cmp, it, ldr,
                            ldr_lit, ldr_sp, ldrd_sp, ldrsb, ldrsh, lsl, lsr, mla, mov, mul,
                            mvn, orr, pop_pc, push, rsb, sbc, str_, str_sp, strb, strd_sp, strh,
                            sub, umull)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier

QUANTIZED_MEAN_OR_SUM = {1: "tflite::reference_ops::QuantizedMeanOrSum<signed char, int>",
                         2: "tflite::reference_ops::QuantizedMeanOrSum<short, int>"}
REDUCE_GENERIC = "tflite::reference_ops::ReduceGeneric<signed char>"
LDIVMOD = "__aeabi_ldivmod"


@kernel(inline=True)
def _return(m):
    """return false / true: MOVS r0, ADD sp, LDMIA sp!, {r4-r11, pc}."""
    mov(m, 0)
    add(m, 0, 36)
    pop_pc(m, 9)


@kernel(inline=True)
def _element_count(m, dims, num_dims):
    """CheckedElementCount's loop (UMULL for the overflow test, MUL for the count): LDR,
    CMP, UMULL, ADD, MUL, BGE, BEQ, CMP, BEQ per dim."""
    sub(m, dims, 4)
    count = mov(m, 1)
    mov(m, 0)
    b(m)
    for idx in range(num_dims):
        current = ldr(m, dims + 4 * idx)                # ldr.w r3, [r0, #4]!
        cmp(m, current, 0)
        umull(m, count, current)                        # the size_t overflow test
        add(m, idx, 1)
        count = mul(m, current, count)
        bcc(m, current >= 0)                            # bge
        bcc(m, True)                                    # beq: no overflow
        cmp(m, num_dims, idx + 1)
        bcc(m, idx + 1 == num_dims)                     # beq: done
    return count


@kernel(inline=True)
def _any_empty_dim(m, dims, num_dims):
    """`for i: if (input_dims[i] == 0) return true`: LDR, ADDS, CMP, BNE, CMP, BEQ."""
    sub(m, dims, 4)
    mov(m, 0)
    b(m)
    for i in range(num_dims):
        d = ldr(m, dims + 4 * i)
        add(m, i, 1)
        cmp(m, d, 0)
        bcc(m, d != 0)
        if d == 0:
            return True
        cmp(m, num_dims, i + 1)
        bcc(m, i + 1 == num_dims)
    return False


@kernel(inline=True)
def _resolve_axis(m, num_dims, axis, num_axis, out_axis):
    """ResolveAxis inlined (the int64 loop counter: ADDS / ADC and an IT-paired compare);
    returns out_num_axis, -1 at an axis out of range.  The caller tested num_axis >= 1."""
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    out_num_axis = mov(m, 0)
    sub(m, axis, 4)
    mov(m, 0)
    mov(m, 0)
    for idx in range(num_axis):
        current = ldr(m, axis + 4 * idx)                # ldr.w r5, [r8, #4]!
        cmp(m, current, 0)
        bcc(m, current < 0)                             # blt
        if current < 0:
            current = add(m, current, num_dims)         # adds r5, fp
            bcc(m, current >= 0)                        # bpl
            if current < 0:
                return -1
        else:
            cmp(m, num_dims, current)
            bcc(m, num_dims <= current)                 # ble: return false
            if num_dims <= current:
                return -1
        cmp(m, out_num_axis, 0)
        bcc(m, out_num_axis == 0)                       # beq: nothing to compare
        is_dup = False
        if out_num_axis > 0:
            sub(m, out_axis, 4)
            mov(m, 0)
            b(m)
            for j in range(out_num_axis):
                a = ldr(m, out_axis + 4 * j)
                cmp(m, a, current)
                add(m, j, 1)
                bcc(m, a != current)                    # bne
                if a == current:
                    is_dup = True
                    break
                cmp(m, out_num_axis, j + 1)
                bcc(m, j + 1 == out_num_axis)           # beq: not a duplicate
        add(m, idx, 1)                                  # ++idx (64-bit)
        adc(m, 0, 0, 0)
        cmp(m, 0, 0)
        it(m, True)
        cmp(m, idx + 1, num_axis)
        if not is_dup:
            str_(m, out_axis + 4 * out_num_axis, current)
            out_num_axis = add(m, out_num_axis, 1)
        bcc(m, idx + 1 < num_axis)                      # bne: next axis
        if idx + 1 == num_axis and not is_dup:
            b(m)                                        # b.n to the join
    return out_num_axis


@kernel(inline=True)
def _clear_input_iter(m, input_iter, num_dims):
    """Reduce's `input_iter[idx] = 0` loop: STR, CMP, BNE per dim."""
    sub(m, input_iter, 4)
    lsl(m, num_dims, 2)
    add(m, input_iter, 4 * num_dims)
    mov(m, 0)
    for idx in range(num_dims):
        str_(m, input_iter + 4 * idx, 0)
        cmp(m, idx + 1, num_dims)
        bcc(m, idx + 1 < num_dims)


@kernel(inline=True)
def _input_offset(m, num_dims, dims, index):
    """ReducedOutputOffset(..., 0, nullptr): LDR, LDR, CMP, MLA, BNE per dim."""
    offset = 0
    for idx in range(num_dims):
        d = ldr(m, dims + 4 * idx)
        i = ldr(m, index + 4 * idx)
        cmp(m, idx + 1, num_dims)
        offset = mla(m, d, offset, i)
        bcc(m, idx + 1 < num_dims)
    return offset


@kernel(inline=True)
def _output_offset(m, num_dims, dims, index, num_axis, axis, is_max):
    """ReducedOutputOffset skipping `axis` as compiled: per dim the axis != nullptr test
    (CBNZ; REDUCE_MAX's build CMP / BNE), the search of the axes (LDR, CMP, ADD, BNE, then
    CMP, BEQ per mismatch) and, for a kept dim, LDR, LDR, ADDS, CMP, MLA, BNE.  After a
    reduced dim the next one re-enters at the search."""
    offset = 0
    previous_axis = False
    for idx in range(num_dims):
        last = idx + 1 == num_dims
        is_axis = False
        if idx == 0 or not previous_axis:
            if is_max:
                cmp(m, axis, 0)
                bcc(m, True)                            # bne: axis != nullptr
            else:
                cbnz(m, True)                           # cbnz r6
            mov(m, idx)
            cbz(m, num_axis == 0)                       # cbz r4: num_axis == 0
        elif not is_max:
            cbz(m, False)                               # the search's entry test
        if num_axis > 0:
            sub(m, axis, 4)
            mov(m, 0)
            b(m)
            for j in range(num_axis):
                a = ldr(m, axis + 4 * j)
                cmp(m, idx, a)
                add(m, j, 1)
                bcc(m, a != idx)                        # bne
                if a == idx:
                    is_axis = True
                    break
                cmp(m, num_axis, j + 1)
                bcc(m, j + 1 == num_axis)               # beq: not reduced
        if is_axis:
            add(m, idx, 1)
            cmp(m, num_dims, idx + 1)
            if is_max:
                bcc(m, last)                            # beq: done
                if not last:
                    cmp(m, num_axis, 0)
                    bcc(m, True)                        # bne: back to the search
            else:
                bcc(m, not last)                        # bne: next dim
                if last:
                    mov(m, 0)
                    b(m)
        else:
            mov(m, idx)
            b(m)
            i = ldr(m, index + 4 * idx)
            d = ldr(m, dims + 4 * idx)
            add(m, idx, 1)
            cmp(m, num_dims, idx + 1)
            offset = mla(m, d, offset, i)
            bcc(m, not last)
        previous_axis = is_axis
    return offset


@kernel(inline=True)
def _next_index(m, num_dims, dims, current):
    """NextIndex: from the innermost dim, LDR, LDR, ADDS, CMP, MOV, ADD, SUB, BGE; a carry
    clears the index (ADDS, STR, BEQ out after dim 0), else STR the new index and B back."""
    for k in range(num_dims):
        idx = num_dims - 1 - k
        value = add(m, ldr(m, current + 4 * idx), 1)
        d = ldr(m, dims + 4 * idx)
        cmp(m, value, d)
        mov(m, 0)
        add(m, idx, -1)
        sub(m, current, 4)
        bcc(m, value >= d)                              # bge: carry
        if value >= d:
            add(m, idx, 0)                              # adds r3, r1, #1: idx was 0?
            str_(m, current + 4 * idx, 0)
            bcc(m, idx == 0)                            # beq: no next index
        else:
            mov(m, 0)
            str_(m, current + 4 * idx, value)
            b(m)
            return True
    return False


@kernel(inline=True)
def _load(m, address, element_bytes):
    if element_bytes == 1:
        return ldrsb(m, address)
    return ldrsh(m, address)


@kernel(inline=True)
def _reduce_loop(m, input_data, input_dims, input_num_dims, resolved_axis, num_resolved_axis,
                 input_iter, output_data, element_bytes, is_max):
    """Reduce's do-while: both ReducedOutputOffset calls, the fold (ReduceSumImpl's add
    inlined; REDUCE_MAX's reducer called through the pointer compare() returned: BLX, CMP,
    IT, MOVLT, BX), NextIndex."""
    more = True
    while more:
        if is_max:
            ldrd_sp(m)
        else:
            ldr_sp(m)
            ldr_sp(m)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        input_offset = _input_offset(m, input_num_dims, input_dims, input_iter)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        if is_max:
            mov(m, 0)
        output_offset = _output_offset(m, input_num_dims, input_dims, input_iter,
                                       num_resolved_axis, resolved_axis, is_max)
        if is_max:
            ldr_sp(m)
            current = ldrsb(m, output_data + output_offset)
            x = ldrsb(m, input_data + input_offset)
            str_sp(m)
            ldr_sp(m)                                   # the reducer's address
            blx(m)
            cmp(m, current, x)                          # (in > current) ? in : current
            it(m, current >= x)
            if current < x:
                current = mov(m, x)
            bx(m)
            ldr_sp(m)
            ldr_sp(m)
            strb(m, output_data + output_offset, current)
        else:
            ldr_sp(m)                                   # input_data
            x = _load(m, input_data + element_bytes * input_offset, element_bytes)
            s = ldr(m, output_data + 4 * output_offset)
            str_(m, output_data + 4 * output_offset, add(m, s, x))
            sub(m, input_num_dims, 1)
        ldrd_sp(m)
        mov(m, 0)
        b(m)
        more = _next_index(m, input_num_dims, input_dims, input_iter)


@kernel
def quantized_mean_or_sum(m, input_data, input_zero_point, input_dims, input_num_dims,
                          output_data, output_multiplier, output_shift, output_zero_point,
                          output_dims, output_num_dims, axis, num_axis_dimensions,
                          temp_index, resolved_axis, temp_sum, compute_sum, element_bytes):
    """reference_ops::QuantizedMeanOrSum<T, int32_t> (T = int8 or int16 by element_bytes)
    in the block order of its compiled code."""
    push(m, 9)
    sub(m, 0, 36)
    strd_sp(m)
    ldrd_sp(m)
    mov(m, input_num_dims)
    cmp(m, output_num_dims, 0)
    ldr_sp(m)                                           # ldrb: compute_sum
    str_sp(m)
    ldrd_sp(m)
    bcc(m, output_num_dims < 0)
    cbz(m, False)                                       # output_dims != nullptr
    cbz(m, output_num_dims == 0)
    if output_num_dims == 0:
        num_outputs = mov(m, 1)
    else:
        num_outputs = _element_count(m, output_dims, output_num_dims)
        cmp(m, num_outputs, 0)
        bcc(m, num_outputs != 0)
    if num_outputs != 0:
        ldr_sp(m)
        ldr_sp(m)
        sub(m, output_data, 1)
        ldr_sp(m)
        mov(m, 0)
        sub(m, temp_sum, 4)
        for idx in range(num_outputs):                  # output = T(); temp_sum = U()
            mov(m, idx)
            add(m, idx, 2)
            sub(m, idx, 0)
            cmp(m, idx + 1, num_outputs)
            if element_bytes == 1:
                strb(m, output_data + idx, 0)
            else:
                strh(m, output_data + 2 * idx, 0)
            str_(m, temp_sum + 4 * idx, 0)
            bcc(m, idx + 1 < num_outputs)               # bhi
    else:
        b(m)
    cmp(m, input_num_dims, 0)
    bcc(m, input_num_dims <= 0)
    if _any_empty_dim(m, input_dims, input_num_dims):
        mov(m, 1)
        add(m, 0, 36)
        pop_pc(m, 9)
        return 0
    ldr_sp(m)                                           # num_axis_dimensions (int64)
    asr(m, num_axis_dimensions, 31)
    cmp(m, num_axis_dimensions, 1)
    sbc(m, 0, 0, 0)
    bcc(m, num_axis_dimensions < 1)                     # blt: no axis to resolve
    num_resolved_axis = 0
    if num_axis_dimensions >= 1:
        num_resolved_axis = _resolve_axis(m, input_num_dims, axis, num_axis_dimensions,
                                          resolved_axis)
        if num_resolved_axis < 0:
            _return(m)
            return 0
    else:
        mov(m, 0)
        b(m)
    cmp(m, input_num_dims, 0)
    ldr_sp(m)
    it(m, False)
    bcc(m, False)                                       # ble (rank >= 1 here)
    _clear_input_iter(m, temp_index, input_num_dims)
    for _ in range(3):
        add(m, 0, 0)
    cmp(m, input_num_dims, 0)
    str_sp(m)
    str_sp(m)
    sub(m, 0, 4)
    bcc(m, False)                                       # beq
    bcc(m, False)                                       # ble
    sub(m, 0, 4)
    sub(m, 0, 4)
    mov(m, 0)
    ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    str_sp(m)
    str_sp(m)
    _reduce_loop(m, input_data, input_dims, input_num_dims, resolved_axis, num_resolved_axis,
                 temp_index, temp_sum, element_bytes, False)
    mov(m, 0)
    ldr_sp(m)
    cmp(m, input_dims, 0)
    bcc(m, True)                                        # bne: on to the element count
    cmp(m, resolved_axis, 0)
    bcc(m, False)
    cmp(m, num_resolved_axis, 0)
    bcc(m, num_resolved_axis == 0)
    # CheckedReducedElementCount<int64_t>: per axis the range tests and the INT64_MAX /
    # count overflow test (__aeabi_ldivmod), the 64-bit count product
    n = 1
    if num_resolved_axis == 0:
        mov(m, 1)
        mov(m, 0)
    else:
        for _ in range(6):
            mov(m, 0)
        str_sp(m)
        str_sp(m)
        b(m)
        for idx in range(num_resolved_axis):
            a = ldr(m, resolved_axis + 4 * idx)
            cmp(m, a, 0)
            add(m, idx, 1)
            bcc(m, True)                                # bge
            cmp(m, input_num_dims, a)
            bcc(m, False)                               # ble
            current = ldr(m, input_dims + 4 * a)
            cmp(m, current, 0)
            bcc(m, False)                               # blt
            orr(m, n, 0)                                # count != 0
            mov(m, n)
            mov(m, 0)
            asr(m, current, 31)
            bcc(m, False)                               # beq
            mvn(m, 0)
            mvn(m, -(2**31))
            bl(m)                                       # INT64_MAX / count
            cmp(m, 0, current)
            sbc(m, 0, 0, 0)
            bcc(m, False)                               # blt: overflow
            mul(m, n, 0)
            mla(m, current, 0, 0)
            n = umull(m, n, current)[0]
            add(m, 0, 0)
            ldr_sp(m)
            cmp(m, num_resolved_axis, idx + 1)
            bcc(m, idx + 1 == num_resolved_axis)        # beq: done
        orr(m, n, 0)
        ldr_sp(m)
        bcc(m, n != 0)                                  # bne
    ldr_sp(m)                                           # compute_sum
    cbnz(m, compute_sum)
    if not compute_sum:
        cmp(m, 0, 0)                                    # clz64: the high word
        bcc(m, True)                                    # beq: it is 0
        leading = add(m, clz(m, n), 32)
        b(m)
        ldr_sp(m)
        ldr_sp(m)
        limit = add(m, output_shift, 31)                # min(31 + output_shift, 32) ...
        cmp(m, limit, 32)
        it(m, limit < 32)
        if limit >= 32:
            limit = mov(m, 32)
        shift = rsb(m, leading, 63)                     # ... then with 63 - clz64(n)
        cmp(m, limit, shift)
        it(m, limit < shift)
        if limit >= shift:
            limit = mov(m, shift)
        shift = limit
        output_shift = sub(m, output_shift, shift)
        str_sp(m)
        ldr_sp(m)
        sub(m, shift, 32)                               # (int64)multiplier << shift
        asr(m, output_multiplier, 31)
        lsl(m, 0, shift)
        lsl(m, output_multiplier, 0)
        orr(m, 0, 0)
        rsb(m, shift, 32)
        lsr(m, output_multiplier, 0)
        orr(m, 0, 0)
        mov(m, 0)
        lsl(m, output_multiplier, shift)
        mov(m, n)
        bl(m)                                           # / num_elements_in_axis
        output_multiplier = str_sp_value(m, (output_multiplier << shift) // n)
    cmp(m, num_outputs, 0)
    bcc(m, num_outputs == 0)
    lowest = -128 if element_bytes == 1 else -32768
    highest = 127 if element_bytes == 1 else 32767
    if num_outputs > 0:
        ldr_sp(m)
        sub(m, temp_sum, 4)
        ldr_sp(m)
        offset_zp = mul(m, n, input_zero_point)         # input_zero_point * n (low word)
        mov(m, offset_zp)
        ldr_sp(m)
        add(m, temp_sum, 4 * num_outputs)
        sub(m, output_data, 1)
        mvn(m, 127)
        for idx in range(num_outputs):
            s = ldr(m, temp_sum + 4 * idx)
            ldrd_sp(m)                                  # multiplier, shift
            shifted_sum = sub(m, s, offset_zp)
            bl(m)
            output = MultiplyByQuantizedMultiplier(m, shifted_sum, output_multiplier,
                                                   output_shift)
            ldr_sp(m)                                   # output_zero_point
            output = add(m, output, output_zero_point)
            output = min_ge(m, output, highest)
            output = max_lt(m, output, lowest)
            cmp(m, idx + 1, num_outputs)
            if element_bytes == 1:
                strb(m, output_data + idx, output)
            else:
                strh(m, output_data + 2 * idx, output)
            bcc(m, idx + 1 < num_outputs)
        b(m)
    mov(m, 1)
    add(m, 0, 36)
    pop_pc(m, 9)
    return 0


@kernel(inline=True)
def str_sp_value(m, value):
    """The division's quotient stored to its stack slot (STR): returns it."""
    str_sp(m)
    return value


@kernel
def reduce_max_s8(m, input_data, input_dims, input_num_dims, output_data, output_dims,
                  output_num_dims, axis, num_axis_dimensions, temp_index, resolved_axis):
    """reference_ops::ReduceGeneric<int8_t> with init_value -128 and the max reducer, in the
    block order of its compiled code (EvalMinMaxHelper's reducer choice included)."""
    push(m, 9)
    ldr_lit(m)                                          # the max lambda's address
    sub(m, 0, 36)
    cmp(m, 1, 0)                                        # evalType
    ldr_lit(m)                                          # the min lambda's address
    ldr_sp(m)
    ldr_sp(m)
    it(m, False)
    mov(m, 0)                                           # movne: the max reducer
    ldrd_sp(m)
    it(m, False)
    mvn(m, 127)                                         # mvnne: init_value -128
    cmp(m, output_num_dims, 0)
    strd_sp(m)
    ldrd_sp(m)
    bcc(m, output_num_dims < 0)
    mov(m, input_num_dims)
    cbz(m, False)                                       # output_dims != nullptr
    cmp(m, output_num_dims, 0)
    bcc(m, output_num_dims == 0)
    if output_num_dims == 0:
        num_outputs = mov(m, 1)
    else:
        num_outputs = _element_count(m, output_dims, output_num_dims)
        mov(m, 0)
        cmp(m, num_outputs, 0)
        bcc(m, num_outputs != 0)
    if num_outputs != 0:
        sub(m, output_data, 1)
        for idx in range(num_outputs):                  # output = init_value
            mov(m, idx)
            add(m, idx, 2)
            sub(m, idx, 0)
            cmp(m, idx + 1, num_outputs)
            strb(m, output_data + idx, -128)
            bcc(m, idx + 1 < num_outputs)               # bhi
    else:
        b(m)
    cmp(m, input_num_dims, 0)
    bcc(m, input_num_dims <= 0)
    if _any_empty_dim(m, input_dims, input_num_dims):
        mov(m, 1)
        add(m, 0, 36)
        pop_pc(m, 9)
        return 0
    asr(m, num_axis_dimensions, 31)
    cmp(m, num_axis_dimensions, 1)
    sbc(m, 0, 0, 0)
    bcc(m, num_axis_dimensions < 1)
    num_resolved_axis = 0
    if num_axis_dimensions >= 1:
        num_resolved_axis = _resolve_axis(m, input_num_dims, axis, num_axis_dimensions,
                                          resolved_axis)
        if num_resolved_axis < 0:
            _return(m)
            return 0
    else:
        mov(m, 0)
        b(m)
    cmp(m, input_num_dims, 0)
    ldr_sp(m)
    it(m, False)
    bcc(m, False)                                       # ble (rank >= 1 here)
    _clear_input_iter(m, temp_index, input_num_dims)
    add(m, 0, 0)
    sub(m, input_num_dims, 1)
    str_sp(m)
    sub(m, 0, 4)
    cmp(m, input_num_dims, 0)
    add(m, 0, 0)
    str_sp(m)
    str_sp(m)
    bcc(m, False)                                       # beq
    bcc(m, False)                                       # ble
    sub(m, 0, 4)
    str_sp(m)
    str_sp(m)
    mov(m, 0)
    sub(m, 0, 4)
    ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    _reduce_loop(m, input_data, input_dims, input_num_dims, resolved_axis, num_resolved_axis,
                 temp_index, output_data, 1, True)
    mov(m, 1)
    add(m, 0, 36)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    """A MEAN / SUM / REDUCE_MAX case (operators/mean.py, sum.py, reduce_max.py): the dims
    arrays and the axis tensor at addr["input_dims"], ["output_dims"], ["axis"] (flash); the
    scratch buffers as TFLM's Prepare requests them."""
    rank_in, rank_out = len(case["input_shape"]), len(case["output_shape"])
    if case["reducer"] == "max":
        input_iter, resolved_axis = addr["scratch"]
        run(reduce_max_s8, m, addr["input"], addr["input_dims"], rank_in, addr["output"],
            addr["output_dims"], rank_out, addr["axis"], case["num_axis"], input_iter,
            resolved_axis, tracer=tracer)
        return [REDUCE_GENERIC]
    temp_sum, input_iter, resolved_axis = addr["scratch"]
    element_bytes = case["element_bytes"]
    run(quantized_mean_or_sum, m, addr["input"], case["input_zp"], addr["input_dims"],
        rank_in, addr["output"], case["multiplier"], case["shift"], case["output_zp"],
        addr["output_dims"], rank_out, addr["axis"], case["num_axis"], input_iter,
        resolved_axis, temp_sum, case["reducer"] == "sum", element_bytes, tracer=tracer)
    return [QUANTIZED_MEAN_OR_SUM[element_bytes], MBQM, LDIVMOD]
