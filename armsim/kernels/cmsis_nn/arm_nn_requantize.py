"""arm_nn_requantize (arm_nnsupportfunctions.h): the default double-rounding build, and
with CMSIS_NN_USE_SINGLE_ROUNDING (`m.single_rounding`) the single-rounding one:

    total_shift = 31 - shift;  new_val = val * (int64_t)multiplier;
    result = new_val >> (total_shift - 1);  return (result + 1) >> 1;

    left_shift  = shift > 0 ? shift : 0
    right_shift = shift > 0 ? 0 : -shift
    return arm_nn_divide_by_power_of_two(
        arm_nn_doubling_high_mult_no_sat(val * (1 << left_shift), multiplier), right_shift)

arm_nn_doubling_high_mult_no_sat adds the 64-bit product to 1 << 30 (one SMLAL) and takes
bits [62:31]; arm_nn_divide_by_power_of_two rounds half away from zero.  Both are
__STATIC_FORCEINLINE, so they are inlined into every kernel that requantizes.
`arm_nn_requantize` counts in the REQUANTIZE code region (the "requantize" stage); the
helpers count where their caller does (softmax uses them for its own fixed-point math).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (REQUANTIZE, add, and_, asr, bcc, bic, cmp, enter_region, it, ldr,
                            leave_region, lsl, lsr, mov, orr, rsb, smlal, smull, sub)


@kernel(inline=True)
def arm_nn_doubling_high_mult_no_sat(m, m1, m2):
    lo = mov(m, 1 << 30)                     # mult.word.low = 1 << 30;
    hi = mov(m, 0)                           # mult.word.high = 0;
    lo, hi = smlal(m, lo, hi, m1, m2)        # mult.long_long += (int64_t)m1 * m2;
    result = orr(m, lsr(m, lo, 31), hi << 1)  # result = (int32_t)(mult.long_long >> 31);  (ORR Rd, Rn, Rm, LSL #1)
    return result


@kernel(inline=True)
def round_half_away(m, result, remainder, threshold):
    """The rounding of arm_nn_divide_by_power_of_two, given remainder = remainder_mask &
    dividend, result = dividend >> exponent and threshold = remainder_mask >> 1."""
    cmp(m, result, 0)                                   # if (result < 0)
    negative = result < 0
    it(m, not negative)
    if negative:
        threshold = add(m, threshold, 1)                #     threshold++;
    cmp(m, remainder, threshold)                        # if (remainder > threshold)
    round_up = remainder > threshold
    it(m, not round_up)
    if round_up:
        result = add(m, result, 1)                      #     result++;
    return result


@kernel(inline=True)
def arm_nn_divide_by_power_of_two(m, dividend, exponent):
    one = mov(m, 1)
    remainder_mask = sub(m, lsl(m, one, exponent), 1)   # (1 << exponent) - 1
    remainder = and_(m, remainder_mask, dividend)       # remainder_mask & dividend
    result = asr(m, dividend, exponent)                 # dividend >> exponent
    threshold = asr(m, remainder_mask, 1)               # remainder_mask >> 1
    result = round_half_away(m, result, remainder, threshold)
    return result


@kernel(inline=True)
def split_shift(m, shift):
    """(left_shift, right_shift) of arm_nn_requantize."""
    left_shift = bic(m, shift, shift >> 31)             # shift > 0 ? shift : 0  (BIC Rd, Rs, Rs, ASR #31)
    right_shift = rsb(m, shift, 0)                      # -shift ...
    cmp(m, shift, 0)
    # gcc -O2 has no IT block here: it branches (CMP shift, #0; BGT) around the rounding
    # (disassembly of arm_depthwise_conv_3x3_s8.o, arm_nn_mat_mult_nt_t_s8.o), so this IT
    # and MOVGT are the port's stand-in and no failed slot is charged for them
    it(m, 0)
    if shift > 0:
        right_shift = mov(m, 0)                         # ... or 0 when shift > 0
    return left_shift, right_shift


@kernel(inline=True)
def requantize_single_rounding(m, val, multiplier, n):
    """CMSIS_NN_USE_SINGLE_ROUNDING's arm_nn_requantize given n = total_shift - 1 = 30 - shift.
    The 64-bit shift by a register amount is gcc's inline sequence for an int64 ASR (LSR,
    RSB, SUBS, LSL, ORR, IT PL / ASRPL).  Estimated: no disassembly or measurement of a
    single-rounding build exists here."""
    lo, hi = smull(m, val, multiplier)              # new_val = val * (int64_t)multiplier;
    low = lsr(m, lo, n)                             # (int32_t)(new_val >> (total_shift - 1)):
    up = rsb(m, n, 32)                              #   the low word's bits from both halves
    over = sub(m, n, 32)                            #   SUBS: n >= 32 takes the high word alone
    result = orr(m, low, lsl(m, hi, up))
    it(m, 1 if over < 0 else 0)                     #   IT PL: the ASRPL fails while n < 32
    if over >= 0:
        result = asr(m, hi, over)
    result = asr(m, add(m, result, 1), 1)           # result = (result + 1) >> 1;
    return result


@kernel(inline=True)
def arm_nn_requantize(outer, val, multiplier, shift):
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:                           # CMSIS_NN_USE_SINGLE_ROUNDING
        result = requantize_single_rounding(m, val, multiplier, rsb(m, shift, 30))
    else:
        left_shift, right_shift = split_shift(m, shift)
        result = arm_nn_divide_by_power_of_two(
            m, arm_nn_doubling_high_mult_no_sat(m, lsl(m, val, left_shift), multiplier),
            right_shift)
    leave_region(outer, m)
    return result


@kernel(inline=True)
def divide_by_power_of_two_inlined(m, dividend, shift, add_minus_one):
    """arm_nn_divide_by_power_of_two(dividend, -shift) as gcc 12.2 -O2 inlines it into the
    kernels it has read off (shift <= 0, behind the caller's CMP shift, #0; BGT): RSBS, MOVS #1,
    LSLS, SUBS (the mask; ADD #-1 where gcc picked a high register, `add_minus_one`), AND
    (the remainder), ASRS (the quotient, whose N flag is the sign), ASR #1 (the threshold),
    IT MI / ADDMI, CMP, IT GT / ADDGT."""
    exponent = rsb(m, shift, 0)                         # -shift
    one_shifted = lsl(m, mov(m, 1), exponent)
    if add_minus_one:
        remainder_mask = add(m, one_shifted, -1)        # (1 << exponent) - 1
    else:
        remainder_mask = sub(m, one_shifted, 1)
    remainder = and_(m, dividend, remainder_mask)       # remainder_mask & dividend
    result = asr(m, dividend, exponent)                 # dividend >> exponent
    threshold = asr(m, remainder_mask, 1)               # remainder_mask >> 1
    negative = result < 0
    it(m, not negative)
    if negative:
        threshold = add(m, threshold, 1)                # if (result < 0) threshold++;
    cmp(m, remainder, threshold)
    round_up = remainder > threshold
    it(m, not round_up)
    if round_up:
        result = add(m, result, 1)                      # if (remainder > threshold) result++;
    return result


@kernel(inline=True)
def requantize_inlined(outer, val, multiplier_address, shift, late_multiplier,
                       add_minus_one=False):
    """arm_nn_requantize(val, *multiplier_address, shift) as gcc 12.2 -O2 inlines it where
    each value loads its own multiplier and shift (the caller has loaded the shift): BIC
    (left shift), LSL, MOVS #0 / MOV #1 << 30, SMLAL, LSRS #31, CMP shift, #0, ORR LSL #1,
    BGT past the rounding, then `divide_by_power_of_two_inlined`.  The multiplier's LDR
    comes first, or with `late_multiplier` after the two MOVs (the Cortex-M3 build's order
    at some call sites; `add_minus_one`: see `divide_by_power_of_two_inlined`).
    CMSIS_NN_USE_SINGLE_ROUNDING (`m.single_rounding`, not a measured
    build) takes `requantize_single_rounding`."""
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:
        multiplier = ldr(m, multiplier_address)
        result = requantize_single_rounding(m, val, multiplier, rsb(m, shift, 30))
        leave_region(outer, m)
        return result
    if not late_multiplier:
        multiplier = ldr(m, multiplier_address)
    left_shift = bic(m, shift, shift >> 31)             # LEFT_SHIFT(shift)  (BIC Rd, Rs, Rs, ASR #31)
    val = lsl(m, val, left_shift)                       # val * (1 << LEFT_SHIFT(shift))
    hi = mov(m, 0)
    lo = mov(m, 1 << 30)
    if late_multiplier:
        multiplier = ldr(m, multiplier_address)
    lo, hi = smlal(m, lo, hi, val, multiplier)          # mult.long_long += (int64_t)m1 * m2;
    lo = lsr(m, lo, 31)
    cmp(m, shift, 0)
    result = orr(m, lo, hi << 1)                        # (int32_t)(mult.long_long >> 31)
    bcc(m, shift > 0)                                   # bgt: RIGHT_SHIFT(shift) == 0
    if shift <= 0:
        result = divide_by_power_of_two_inlined(m, result, shift, add_minus_one)
    leave_region(outer, m)
    return result
