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
the axis tensor, input_iter and resolved_axis are read and written with LDR / STR.  The
instruction sequence follows the C's loops but was not read off a compiled listing: the loop
bookkeeping is an estimate, the 64-bit divisions are one BL each (their libgcc bodies are not
counted), MultiplyByQuantizedMultiplier is TFLM's compiled one (kernels/tflm/common.py), and
REDUCE_MAX's reducer is called through the function pointer compare() returns (BLX, CMP, IT,
MOV, BX).  No measurement exists: nothing is fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, blx, bx, clz, cmp, it, ldr, ldrsb, ldrsh, mla, mov,
                            mul, pop_pc, push, rsb, str_, strb, strh, sub, udiv)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier

QUANTIZED_MEAN_OR_SUM = {1: "tflite::reference_ops::QuantizedMeanOrSum<signed char, int>",
                         2: "tflite::reference_ops::QuantizedMeanOrSum<short, int>"}
REDUCE_GENERIC = "tflite::reference_ops::ReduceGeneric<signed char>"
LDIVMOD = "__aeabi_ldivmod"


@kernel(inline=True)
def _checked_element_count(m, dims, num_dims):
    """reduce_utils::CheckedElementCount: the product of the dims, each checked >= 0 and
    against size_t overflow (SIZE_MAX / current: UDIV)."""
    count = mov(m, 1)
    for idx in range(num_dims):
        current = ldr(m, dims + 4 * idx)
        cmp(m, current, 0)
        bcc(m, current < 0)                             # blt: return false
        cmp(m, current, 0)
        bcc(m, current == 0)                            # current > 0 && ...
        if current > 0:
            limit = udiv(m, -1, current)                # SIZE_MAX / current
            cmp(m, count, limit)
            bcc(m, False)                               # bhi: return false
        count = mul(m, count, current)
        cmp(m, idx + 1, num_dims)
        bcc(m, idx + 1 < num_dims)
    return count


@kernel(inline=True)
def _resolve_axis(m, num_dims, axis, num_axis, out_axis):
    """ResolveAxis: out_axis gets each axis wrapped into [0, num_dims), duplicates dropped;
    returns out_num_axis, -1 (false) at an axis out of range."""
    out_num_axis = 0
    cmp(m, num_dims, 0)
    bcc(m, num_dims == 0)                               # scalars: no axis
    if num_dims == 0:
        return 0
    for idx in range(num_axis):
        current = ldr(m, axis + 4 * idx)
        cmp(m, current, 0)
        it(m, current < 0)
        if current < 0:
            current = add(m, current, num_dims)
        out_of_range = current < 0 or current >= num_dims
        cmp(m, current, num_dims)                       # unsigned: both bounds
        bcc(m, out_of_range)                            # bcs: return false
        if out_of_range:
            return -1
        is_dup = False
        for j in range(out_num_axis):
            a = ldr(m, out_axis + 4 * j)
            cmp(m, a, current)
            bcc(m, a == current)                        # beq: is_dup, break
            if a == current:
                is_dup = True
                break
        cmp(m, 0 if is_dup else 1, 0)
        bcc(m, is_dup)
        if not is_dup:
            str_(m, out_axis + 4 * out_num_axis, current)
            out_num_axis = add(m, out_num_axis, 1)
        cmp(m, idx + 1, num_axis)
        bcc(m, idx + 1 < num_axis)
    return out_num_axis


@kernel(inline=True)
def _reduced_output_offset(m, num_dims, dims, index, num_axis, axis, with_axis):
    """ReducedOutputOffset: offset * dims[idx] + index[idx] over the dims not in `axis`
    (`with_axis` False: the call with axis == nullptr, the input's own offset)."""
    offset = mov(m, 0)
    for idx in range(num_dims):
        is_axis = False
        if with_axis:
            for j in range(num_axis):
                a = ldr(m, axis + 4 * j)
                cmp(m, a, idx)
                bcc(m, a == idx)
                if a == idx:
                    is_axis = True
                    break
        else:
            cmp(m, 0, 0)                                # axis != nullptr
        bcc(m, is_axis)
        if not is_axis:
            d = ldr(m, dims + 4 * idx)
            i = ldr(m, index + 4 * idx)
            offset = mla(m, offset, d, i)
        cmp(m, idx + 1, num_dims)
        bcc(m, idx + 1 < num_dims)
    return offset


@kernel(inline=True)
def _next_index(m, num_dims, dims, current):
    """NextIndex: add the carry from the innermost dim outwards; False after the last."""
    cmp(m, num_dims, 0)
    bcc(m, num_dims == 0)
    if num_dims == 0:
        return False
    carry = mov(m, 1)
    for k in range(num_dims):
        idx = num_dims - 1 - k
        value = add(m, ldr(m, current + 4 * idx), carry)
        d = ldr(m, dims + 4 * idx)
        cmp(m, value, d)
        bcc(m, value >= d)
        if value >= d:
            str_(m, current + 4 * idx, mov(m, 0))
            cmp(m, idx, 0)
            bcc(m, idx > 0)
        else:
            str_(m, current + 4 * idx, value)
            carry = mov(m, 0)
            break
    return carry == 0


@kernel(inline=True)
def _load(m, address, element_bytes):
    if element_bytes == 1:
        return ldrsb(m, address)
    return ldrsh(m, address)


@kernel(inline=True)
def _reduce(m, input_data, input_dims, input_num_dims, resolved_axis, num_resolved_axis,
            input_iter, output_data, element_bytes, is_max):
    """Reduce<In, Out>: reset input_iter, then per input element fold it into its output
    (is_max: ReduceGeneric's int8 max through the reducer pointer; else ReduceSumImpl's
    int32 add, inlined)."""
    for idx in range(input_num_dims):
        str_(m, input_iter + 4 * idx, mov(m, 0))
        cmp(m, idx + 1, input_num_dims)
        bcc(m, idx + 1 < input_num_dims)
    more = True
    while more:
        input_offset = _reduced_output_offset(m, input_num_dims, input_dims, input_iter, 0, 0,
                                              False)
        output_offset = _reduced_output_offset(m, input_num_dims, input_dims, input_iter,
                                               num_resolved_axis, resolved_axis, True)
        if is_max:
            current = ldrsb(m, output_data + output_offset)
            x = ldrsb(m, input_data + input_offset)
            blx(m)                                      # reducer(current, in)
            cmp(m, x, current)                          # (in > current) ? in : current
            it(m, x > current)
            if x > current:
                current = mov(m, x)
            bx(m)
            strb(m, output_data + output_offset, current)
        else:
            s = ldr(m, output_data + 4 * output_offset)
            x = _load(m, input_data + element_bytes * input_offset, element_bytes)
            str_(m, output_data + 4 * output_offset, add(m, s, x))
        more = _next_index(m, input_num_dims, input_dims, input_iter)
        cmp(m, 1 if more else 0, 0)
        bcc(m, more)


@kernel(inline=True)
def _clear_and_check(m, output_data, output_dims, output_num_dims, temp_sum, init,
                     element_bytes, input_dims, input_num_dims):
    """The output reset (and temp_sum's for QuantizedMeanOrSum: temp_sum != 0) and the
    empty-input test; returns (num_outputs, empty)."""
    num_outputs = _checked_element_count(m, output_dims, output_num_dims)
    value = mov(m, init)
    for idx in range(num_outputs):
        if element_bytes == 1:
            strb(m, output_data + idx, value)
        else:
            strh(m, output_data + 2 * idx, value)
        if temp_sum != 0:
            str_(m, temp_sum + 4 * idx, 0)
        cmp(m, idx + 1, num_outputs)
        bcc(m, idx + 1 < num_outputs)
    empty = False
    for i in range(input_num_dims):
        d = ldr(m, input_dims + 4 * i)
        cmp(m, d, 0)
        bcc(m, d == 0)
        if d == 0:
            empty = True
            break
    return num_outputs, empty


@kernel
def quantized_mean_or_sum(m, input_data, input_zero_point, input_dims, input_num_dims,
                          output_data, output_multiplier, output_shift, output_zero_point,
                          output_dims, output_num_dims, axis, num_axis_dimensions,
                          temp_index, resolved_axis, temp_sum, compute_sum, element_bytes):
    """reference_ops::QuantizedMeanOrSum<T, int32_t> (T = int8 or int16 by element_bytes)."""
    push(m, 9)
    cmp(m, output_num_dims, 0)                          # output_num_dims < 0 || ...
    bcc(m, False)
    num_outputs, empty = _clear_and_check(m, output_data, output_dims, output_num_dims,
                                          temp_sum, 0, element_bytes, input_dims,
                                          input_num_dims)
    if empty:
        pop_pc(m, 9)
        return 0
    bl(m)                                               # ResolveAxis
    num_resolved_axis = _resolve_axis(m, input_num_dims, axis, num_axis_dimensions,
                                      resolved_axis)
    bx(m)
    cmp(m, num_resolved_axis, 0)
    bcc(m, num_resolved_axis < 0)
    if num_resolved_axis < 0:                           # return false: the output stays 0
        pop_pc(m, 9)
        return 0
    _reduce(m, input_data, input_dims, input_num_dims, resolved_axis, num_resolved_axis,
            temp_index, temp_sum, element_bytes, False)
    # CheckedReducedElementCount<int64_t>: per axis the range and overflow checks (INT64_MAX
    # / count: a 64-bit division, one BL)
    n = mov(m, 1)
    for idx in range(num_resolved_axis):
        a = ldr(m, resolved_axis + 4 * idx)
        cmp(m, a, input_num_dims)
        bcc(m, False)
        current = ldr(m, input_dims + 4 * a)
        cmp(m, current, 0)
        bcc(m, False)
        bl(m)                                           # __aeabi_ldivmod
        cmp(m, current, 0)
        bcc(m, False)
        n = mul(m, n, current)
        cmp(m, idx + 1, num_resolved_axis)
        bcc(m, idx + 1 < num_resolved_axis)
    cmp(m, n, 0)
    bcc(m, n == 0)
    if n == 0:
        pop_pc(m, 9)
        return 0
    if not compute_sum:
        cmp(m, 0, 0)                                    # clz64: the high word is 0
        it(m, True)
        leading = add(m, clz(m, n), 32)
        shift = rsb(m, leading, 63)                     # 63 - CountLeadingZeros(n)
        shift = min_ge(m, shift, 32)
        shift = min_ge(m, shift, add(m, output_shift, 31))
        bl(m)                                           # ((int64)multiplier << shift) / n
        output_multiplier = mov(m, (output_multiplier << shift) // n)
        output_shift = sub(m, output_shift, shift)
    lowest = -128 if element_bytes == 1 else -32768
    highest = 127 if element_bytes == 1 else 32767
    offset_zp = mul(m, input_zero_point, n)             # input_zero_point * n (low word)
    for idx in range(num_outputs):
        shifted_sum = sub(m, ldr(m, temp_sum + 4 * idx), offset_zp)
        bl(m)
        output = MultiplyByQuantizedMultiplier(m, shifted_sum, output_multiplier, output_shift)
        output = add(m, output, output_zero_point)
        output = max_lt(m, output, lowest)
        output = min_ge(m, output, highest)
        if element_bytes == 1:
            strb(m, output_data + idx, output)
        else:
            strh(m, output_data + 2 * idx, output)
        cmp(m, idx + 1, num_outputs)
        bcc(m, idx + 1 < num_outputs)
    pop_pc(m, 9)
    return 0


@kernel
def reduce_max_s8(m, input_data, input_dims, input_num_dims, output_data, output_dims,
                  output_num_dims, axis, num_axis_dimensions, temp_index, resolved_axis):
    """reference_ops::ReduceGeneric<int8_t> with init_value -128 and the max reducer."""
    push(m, 9)
    cmp(m, output_num_dims, 0)                          # InitTensorDataForReduce's checks
    bcc(m, False)
    num_outputs, empty = _clear_and_check(m, output_data, output_dims, output_num_dims, 0,
                                          -128, 1, input_dims, input_num_dims)
    if empty or num_outputs == 0:
        pop_pc(m, 9)
        return 0
    bl(m)                                               # ResolveAxis
    num_resolved_axis = _resolve_axis(m, input_num_dims, axis, num_axis_dimensions,
                                      resolved_axis)
    bx(m)
    _reduce(m, input_data, input_dims, input_num_dims, resolved_axis, num_resolved_axis,
            temp_index, output_data, 1, True)
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
