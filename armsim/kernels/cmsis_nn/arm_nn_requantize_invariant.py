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
from armsim.cpu.ops import (REQUANTIZE, add, and_, asr, b, bcc, cmp, enter_region, fitted_ldr_sp,
                            it, leave_region, lsl, mov, rsb, sub)

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


#: how gcc lowers `if (result < 0) threshold++;` at one requantize of the s16 element-wise
#: loops: IT MI / ADDMI, ITE MI selecting one of two spilled thresholds (LDRMI / LDRPL, one
#: slot always fails), or a branch (BMI / BLT to `threshold++` out of line, then B back)
SIGN_IT, SIGN_ITE, SIGN_BRANCH = 0, 1, 2


@kernel(inline=True)
def _reloads_at(m, loads, slot):
    """`loads` stack reloads (LDR [sp, #imm]) spread one at a time over the three slots of
    requantize_in_loop_branching, between its ALU work (as gcc interleaves them)."""
    n = loads // 3
    if slot < loads % 3:
        n += 1
    for _ in range(n):
        fitted_ldr_sp(m)


@kernel(inline=True)
def requantize_in_loop_branching(outer, val, multiplier, left_shift, right_shift, remainder_mask,
                                 threshold, positive_shift, sign_mode, round_branch, loads):
    """arm_nn_requantize as gcc -O2 lays it out in the s16 element-wise loops (disassembly of
    arm_elementwise_add_s16.o / _mul_s16.o, M4 and M3 builds): the caller tests the sign of
    the shift once per iteration (CMP shift, #0; BGT) and a positive shift takes a path with
    no rounding (right shift 0: nothing to round); otherwise ASRS sets N for `sign_mode`
    (SIGN_*), and the round-up is IT GT / ADDGT, or with `round_branch` a CMP and a branch
    around ADDS / B.  `loads`: the caller's stack reloads (fitted) issued in between.
    Counts in the REQUANTIZE code region; single rounding as `requantize_in_loop`."""
    m = enter_region(outer, REQUANTIZE)
    result = _branching(m, val, multiplier, left_shift, right_shift, remainder_mask, threshold,
                        positive_shift, sign_mode, round_branch, loads)
    leave_region(outer, m)
    return result


@kernel(inline=True)
def _branching(m, val, multiplier, left_shift, right_shift, remainder_mask, threshold,
               positive_shift, sign_mode, round_branch, loads):
    if m.single_rounding:
        return requantize_single_rounding(m, val, multiplier, left_shift)
    shifted = lsl(m, val, left_shift)
    _reloads_at(m, loads, 0)
    dividend = arm_nn_doubling_high_mult_no_sat(m, shifted, multiplier)
    _reloads_at(m, loads, 1)
    if positive_shift:
        _reloads_at(m, loads, 2)
        return dividend
    remainder = and_(m, remainder_mask, dividend)       # remainder_mask & dividend
    _reloads_at(m, loads, 2)
    result = asr(m, dividend, right_shift)              # ASRS: dividend >> exponent
    negative = result < 0                               # if (result < 0) threshold++;
    if sign_mode == SIGN_IT:
        it(m, not negative)
        if negative:
            threshold = add(m, threshold, 1)
    elif sign_mode == SIGN_ITE:
        it(m, 1)                                        # ITE MI: one of the two loads fails
        fitted_ldr_sp(m)                                # LDRMI / LDRPL: threshold (+ 1), spilled
        if negative:
            threshold = threshold + 1
    else:
        bcc(m, negative)
        if negative:
            threshold = add(m, threshold, 1)
            b(m)
    cmp(m, remainder, threshold)                        # if (remainder > threshold) result++;
    round_up = remainder > threshold
    if round_branch:
        bcc(m, not round_up)
        if round_up:
            result = add(m, result, 1)
            b(m)
    else:
        it(m, not round_up)
        if round_up:
            result = add(m, result, 1)
    return result
