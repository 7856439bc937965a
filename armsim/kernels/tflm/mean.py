"""TFLite Micro's int8 and int16 MEAN (reduce_common.cc EvalIntegerMean<T> ->
reference_ops::QuantizedMeanOrSum<T, int32_t>, reduce.h), counted.

    for idx < num_outputs: output_data[idx] = 0; temp_sum[idx] = 0;
    ReduceSumImpl: for every input element (temp_index walks the input with NextIndex),
        temp_sum[ReducedOutputOffset(temp_index, skipping reduced axes)] += input;
    shift = min(63 - clz64(num_elements_in_axis), 32, 31 + output_shift);
    output_multiplier = ((int64)output_multiplier << shift) / num_elements_in_axis;
    output_shift -= shift;
    for idx < num_outputs:
        output = MultiplyByQuantizedMultiplier(temp_sum[idx] - input_zp * n, mult, shift)
                 + output_zp, clamped to T.

The input is viewed as 4-D (leading dims of 1); `axis_mask` has bit d set for each
reduced dimension.  temp_sum is the op's int32 scratch buffer in the arena.
MultiplyByQuantizedMultiplier (double rounding) is computed with arm_nn_requantize, the
same arithmetic.  int16 (`elem` 2) is the same structure with LDRSH / STRH and SSAT #16.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, ldr, ldrsb, ldrsh, mla, mov, mul, pop_pc, push,
                            ssat, str_, strb, strh, sub)

from armsim.kernels.cmsis_nn.arm_nn_requantize import arm_nn_requantize


@kernel
def quantized_mean(m, inp, out, temp_sum, d0, d1, d2, d3, axis_mask, num_outputs,
                   n_in_axis, input_zp, output_zp, mult, shift, elem):
    bl(m)
    push(m, 9)
    for idx in range(num_outputs):                       # reset output and temp_sum
        if elem == 1:
            strb(m, out + idx, 0)
        else:
            strh(m, out + 2 * idx, 0)
        str_(m, temp_sum + 4 * idx, 0)
        cmp(m, idx + 1, num_outputs)
        bcc(m, idx + 1 < num_outputs)
    # output dims: the non-reduced ones (size 1 where reduced)
    o1 = 1 if axis_mask & 2 else d1
    o2 = 1 if axis_mask & 4 else d2
    o3 = 1 if axis_mask & 8 else d3
    n = d0 * d1 * d2 * d3
    i0 = 0
    i1 = 0
    i2 = 0
    i3 = 0
    for k in range(n):
        # ReducedOutputOffset: per dim, skip reduced axes, offset = offset * dim + index
        offset = mov(m, 0)
        if not axis_mask & 1:
            offset = add(m, offset, i0)
        cmp(m, axis_mask & 1, 0)
        bcc(m, (axis_mask & 1) != 0)
        if not axis_mask & 2:
            offset = mla(m, offset, o1, i1)
        cmp(m, axis_mask & 2, 0)
        bcc(m, (axis_mask & 2) != 0)
        if not axis_mask & 4:
            offset = mla(m, offset, o2, i2)
        cmp(m, axis_mask & 4, 0)
        bcc(m, (axis_mask & 4) != 0)
        if not axis_mask & 8:
            offset = mla(m, offset, o3, i3)
        cmp(m, axis_mask & 8, 0)
        bcc(m, (axis_mask & 8) != 0)
        v = ldrsb(m, inp + k) if elem == 1 else ldrsh(m, inp + 2 * k)
        s = ldr(m, temp_sum + 4 * offset)
        str_(m, temp_sum + 4 * offset, add(m, s, v))     # temp_sum[offset] += input
        # NextIndex: increment the innermost index, carry outwards
        i3 = add(m, i3, 1)
        cmp(m, i3, d3)
        bcc(m, i3 < d3)
        if i3 == d3:
            i3 = mov(m, 0)
            i2 = add(m, i2, 1)
            cmp(m, i2, d2)
            bcc(m, i2 < d2)
            if i2 == d2:
                i2 = mov(m, 0)
                i1 = add(m, i1, 1)
                cmp(m, i1, d1)
                bcc(m, i1 < d1)
                if i1 == d1:
                    i1 = mov(m, 0)
                    i0 = add(m, i0, 1)
        cmp(m, k + 1, n)
        bcc(m, k + 1 < n)
    # the mean rescaling (64-bit shift and division: __aeabi_ldivmod, modelled as a call)
    sh = 63
    while sh > 0 and not (n_in_axis >> sh) & 1:
        sh -= 1
    sh = min(sh, 32, 31 + shift)
    bl(m)
    mult = mov(m, (mult << sh) // n_in_axis)
    shift = sub(m, shift, sh)
    offset_zp = mul(m, input_zp, n_in_axis)
    for idx in range(num_outputs):
        s = sub(m, ldr(m, temp_sum + 4 * idx), offset_zp)
        bl(m)
        push(m, 2)
        o = arm_nn_requantize(m, s, mult, shift)
        pop_pc(m, 2)
        o = ssat(m, add(m, o, output_zp), 8 * elem, 0)
        if elem == 1:
            strb(m, out + idx, o)
        else:
            strh(m, out + 2 * idx, o)
        cmp(m, idx + 1, num_outputs)
        bcc(m, idx + 1 < num_outputs)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    shape = [1] * (4 - len(case["input_shape"])) + list(case["input_shape"])
    lead = 4 - len(case["input_shape"])
    mask = 0
    for a in case["axes"]:
        mask |= 1 << (a + lead)
    elem = case["elem"]
    run(quantized_mean, m, addr["input"], addr["output"], addr["scratch"], *shape, mask,
        case["output_size"], case["num_elements_in_axis"], case["input_zp"],
        case["output_zp"], case["multiplier"], case["shift"], elem, tracer=tracer)
    return [f"QuantizedMeanOrSum<int{8 * elem}_t, int32_t>"]
