"""arm_nn_requantize with a loop-invariant shift, as gcc -O2 compiles it inside a loop.

When a kernel requantizes many values with the same `shift` (per-tensor fully connected,
element-wise add and mul), GCC hoists everything that depends only on the shift out of
the loop: the left/right shift split (BIC, RSB, MOV) and the divide-by-power-of-two's
remainder mask and threshold.  The measured dsp_O2/scalar_O2 histograms show it: one BIC
and one RSB per distinct shift per call, not one per value.

`requantize_setup` is the hoisted part (executed once, before the loop);
`requantize_in_loop` is what stays in the loop.  Together they compute exactly
`arm_nn_requantize(val, multiplier, shift)` (kernels/cmsis_nn/arm_nn_requantize.py).
With CMSIS_NN_USE_SINGLE_ROUNDING the hoisted part is total_shift - 1 (one RSB), carried as
the setup's first value.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import REQUANTIZE, and_, asr, enter_region, leave_region, lsl, mov, rsb, sub

from .arm_nn_requantize import (arm_nn_doubling_high_mult_no_sat, requantize_single_rounding,
                                round_half_away, split_shift)


@kernel(inline=True)
def requantize_setup(outer, shift):
    """Loop-invariant part: (left_shift, right_shift, remainder_mask, threshold); single
    rounding: (total_shift - 1, 0, 0, 0)."""
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:
        result = rsb(m, shift, 30), 0, 0, 0
    else:
        left_shift, right_shift = split_shift(m, shift)
        one = mov(m, 1)
        remainder_mask = sub(m, lsl(m, one, right_shift), 1)  # (1 << exponent) - 1
        threshold = asr(m, remainder_mask, 1)               # remainder_mask >> 1
        result = left_shift, right_shift, remainder_mask, threshold
    leave_region(outer, m)
    return result


@kernel(inline=True)
def requantize_in_loop(outer, val, multiplier, left_shift, right_shift, remainder_mask,
                       threshold):
    """arm_nn_requantize(val, multiplier, shift) given `requantize_setup(shift)`."""
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:
        result = requantize_single_rounding(m, val, multiplier, left_shift)
    else:
        dividend = arm_nn_doubling_high_mult_no_sat(m, lsl(m, val, left_shift), multiplier)
        remainder = and_(m, remainder_mask, dividend)   # remainder_mask & dividend
        result = asr(m, dividend, right_shift)          # dividend >> exponent
        result = round_half_away(m, result, remainder, threshold)
    leave_region(outer, m)
    return result
