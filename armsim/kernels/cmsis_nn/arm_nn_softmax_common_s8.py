"""arm_nn_softmax_common_s8 (Source/SoftmaxFunctions/arm_nn_softmax_common_s8.c).

    void arm_nn_softmax_common_s8(const int8_t *input, const int32_t num_rows,
        const int32_t row_size, const int32_t mult, const int32_t shift,
        const int32_t diff_min, const bool int16_output, void *output)

Per row: the maximum; sum of DIV_POW2(EXP_ON_NEG(MUL_SAT(diff * mask, mult)), ACCUM_BITS)
over the columns with diff >= diff_min; headroom = CLZ(sum); shifted_scale =
ONE_OVER1((sum > 0 ? sum << headroom : 0) - (1 << 31)); every column again:
DIV_POW2(MUL_SAT(shifted_scale, EXP_ON_NEG(...)), bits_over_unit) + NN_Q7_MIN (NN_Q15_MIN
with `int16_output`, arm_softmax_s8_s16), clamped, or the minimum when diff < diff_min.  No
ARM_MATH_DSP code, but the M4 and M3 builds schedule it differently.

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 and -mcpu=cortex-m3), one
register per Python variable (r0..r9, sl, fp, ip, lr; `sNN` the stack slot [sp, #NN]): the
fixed-point helpers (arm_nn_doubling_high_mult, arm_nn_exp_on_negative_values,
arm_nn_divide_by_power_of_two, arm_nn_one_over_one_plus_x_for_x_in_0_1,
arm_nn_mult_by_power_of_two) are inlined, and gcc specialises every call site: MUL_SAT's
rounding constant chosen by an ITETE on the operands' signs (two of its four slots always
fail), the division toward zero behind a branch on the product's sign, the seven
SELECT_IF_NON_ZERO masks computed up front and spilled, MUL_SAT of the polynomial's
positive terms without a sign test; the three column loops (sum, int16 and int8 output)
each have their own copy with their own registers.  The hexadecimal numbers in the
comments are the M4 object's offsets.  The branches to the m1 == m2 == NN_Q31_MIN case of
MUL_SAT(diff * mask, mult) (reachable only with mult == NN_Q31_MIN) lead to blocks that
load EXP_ON_NEG(NN_Q31_MAX)'s intermediate values as constants, as gcc folded them.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (adc, add, and_, asr, b, bcc, bic, carry_of_add, clz, cmp, eor,
                            it, ldr_lit, ldr_sp, ldrb_sp, ldrsb, lsl, lsr, mla, mov, mul, mvn,
                            orr, pop_pc, push, rsb, sbc, sbfx, smlal, str_sp, strb, strd_sp,
                            strh, sub, sxtb, sxth, teq, tst, ubfx, umull)
from armsim.kernels.minmax import max_lt

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ACCUM_BITS = 12
NN_Q7_MIN = -128
NN_Q7_MAX = 127
NN_Q15_MIN = -32768
NN_Q15_MAX = 32767
INT32_MIN = -0x80000000
ROUND_NEGATIVE = 1 - (1 << 30)   # MUL_SAT's rounding offset when the product is negative


@kernel(inline=True)
def _rounding(m, negative):
    """int64_t mult = 1 << 30; if ((m1 < 0) ^ (m2 < 0)) mult = 1 - mult;  -- after the
    caller's CMP: ITETE NE, MOVNE/MOVEQ lo, MOVNE/MOVEQ hi (two of the four slots fail).
    Returns (lo, hi)."""
    it(m, 2)
    if negative:
        return mov(m, ROUND_NEGATIVE), mov(m, -1)
    return mov(m, 1 << 30), mov(m, 0)


@kernel(inline=True)
def _toward_zero(m, lo, hi, copy):
    """mult / (1ll << 31) of a negative product: MVN t, #0x80000000; ADDS t, lo, t;
    (`copy`: MOV lo, t); ADC hi, hi, #0.  Returns (lo, hi)."""
    t = mvn(m, INT32_MIN)
    carry = carry_of_add(lo, t)
    lo = add(m, lo, t)
    if copy:
        lo = mov(m, lo)
    return lo, adc(m, hi, 0, carry)


# --- Cortex-M4 (ARM_MATH_DSP build) ----------------------------------------------------------

@kernel
def _m4_sum_column(m, ip, total, max_, mult, shift, diff_min):
    """One column of the sum loop (0x16a-0x176, then 0x178-0x332, 0x6c-0x160):
    if (diff >= diff_min) sum += DIV_POW2(EXP_ON_NEG(MUL_SAT(diff * mask, mult)), ACCUM_BITS);
    `ip` points at the column before.  Returns (ip, sum)."""
    ldr_sp(m)                                      # 16a: max
    ip += 1
    r3 = ldrsb(m, ip)                              # 16c: ldrsb.w r3, [ip, #1]!
    r3 = sub(m, r3, max_)                          # diff = input[col] - max;
    ldr_sp(m)                                      # diff_min
    cmp(m, r3, diff_min)                           # if (diff >= diff_min)
    bcc(m, r3 < diff_min)                          # blt 162
    if r3 < diff_min:
        return ip, total
    # MUL_SAT(diff * mask, mult)
    ldr_sp(m)                                      # 178: shift
    ldr_sp(m)                                      # mult
    r3 = lsl(m, r3, shift)                         # diff * mask
    r2 = lsr(m, eor(m, mult, r3), 31)              # (m1 < 0) ^ (m2 < 0)
    cmp(m, r2, 0)
    r1, r2 = _rounding(m, r2 != 0)
    r1, r2 = smlal(m, r1, r2, r3, mult)            # 194: mult = mult + (int64_t)m1 * m2;
    cmp(m, r2, 0)                                  # mult / (1ll << 31)
    bcc(m, r2 >= 0)
    if r2 < 0:
        r1, r2 = _toward_zero(m, r1, r2, False)
    r1 = lsr(m, r1, 31)
    r1 = orr(m, r1, r2 << 1)                       # val
    ldr_sp(m)                                      # 1ac: mult
    cmp(m, mult, r3)                               # if ((m1 == m2) && (m1 == NN_Q31_MIN))
    bcc(m, mult == r3)
    saturated = False
    if mult == r3:
        ldr_sp(m)                                  # 358
        cmp(m, mult, INT32_MIN)
        bcc(m, mult != INT32_MIN)
        saturated = mult == INT32_MIN
    if saturated:
        # 362: val = NN_Q31_MAX, every value of EXP_ON_NEG's polynomial a constant
        ldr_lit(m)
        ldr_lit(m)
        ldr_lit(m)
        r4 = 0x0FFFFFE0
        r6 = mov(m, 0)
        sl = mov(m, -1)
        strd_sp(m)                                 # [sp, #24], [sp, #28]
        s24, s28 = 0x40000100, 0x001FFFFF
        ldr_lit(m)
        str_sp(m)                                  # [sp, #20]
        s20 = 0x01FFFFF8
        strd_sp(m)                                 # [sp, #44], [sp, #48]
        str_sp(m)                                  # [sp, #32]
        str_sp(m)                                  # [sp, #40]
        str_sp(m)                                  # [sp, #64]
        s44, s48, s32, s40, s64 = -1, 0, -1, -1, -1
        r5 = mov(m, r6)
        str_sp(m)                                  # [sp, #60]
        s60 = 0
        r7 = mov(m, r6)
        r0 = mov(m, 0x20000)
        r2 = mov(m, r6)
        r1 = mvn(m, INT32_MIN)                     # result = NN_Q31_MAX;
        fp = mov(m, r6)
        str_sp(m)                                  # [sp, #52]
        r9 = mov(m, sl)
        str_sp(m)                                  # [sp, #56]
        str_sp(m)                                  # [sp, #36]
        s52, s56, s36 = 0, -1, 0
        lr = mov(m, 1)                             # threshold
        b(m)                                       # b.n 2a0
    else:
        # 1b4: EXP_ON_NEG(val)
        r5 = orr(m, r1, -0x1000000)                # val_mod_minus_quarter = (val & ((1 << 24) - 1)) - (1 << 24)
        r4 = lsl(m, r5, 5)
        r4 = add(m, r4, 1 << 28)                   # x = (val_mod_minus_quarter << 5) + (1 << 28)
        r3 = mov(m, 1 << 30)                       # MUL_SAT(x, x)
        r0 = mov(m, 0)
        r3, r0 = smlal(m, r3, r0, r4, r4)
        cmp(m, r0, 0)
        r5 = sub(m, r5, r1)                        # remainder = val_mod_minus_quarter - val
        bcc(m, r0 >= 0)
        if r0 < 0:
            r3, r0 = _toward_zero(m, r3, r0, True)
        r3 = lsr(m, r3, 31)
        r3 = orr(m, r3, r0 << 1)                   # x2
        r2, r6 = umull(m, r3, r3)                  # 1e2: MUL_SAT(x2, x2), x2 >= 0
        r0 = asr(m, r0, 31)
        carry = carry_of_add(r2, 1 << 30)
        r2 = add(m, r2, 1 << 30)
        r7 = mul(m, r3, r0)
        r6 = adc(m, r6, r7 << 1, carry)
        cmp(m, r6, 0)
        str_sp(m)                                  # [sp, #20] = x2
        s20 = r3
        bcc(m, r6 >= 0)
        if r6 < 0:
            r2, r6 = _toward_zero(m, r2, r6, True)
        r2 = lsr(m, r2, 31)
        r2 = orr(m, r2, r6 << 1)                   # MUL_SAT(x2, x2)
        r0 = mul(m, r4, r0)                        # 20c: x2 * x, 64-bit
        r6 = asr(m, r4, 31)
        r0 = mla(m, r3, r6, r0)
        str_sp(m)                                  # [sp, #28]
        r7 = eor(m, r4, r3)
        r3, r0h = umull(m, r4, r3)
        str_sp(m)                                  # [sp, #24]
        s24 = r3
        r3 = mov(m, r0h)
        ldr_sp(m)                                  # [sp, #28]
        r3 = add(m, r3, r0)
        # the masks of SELECT_IF_NON_ZERO: remainder & (1 << shift++), shift 24..30
        r0 = ubfx(m, r5, 25, 1)                    # 228
        str_sp(m)                                  # [sp, #28]
        s28 = r3
        r3 = sub(m, r0, 1)
        r0 = ubfx(m, r5, 24, 1)
        str_sp(m)                                  # [sp, #40]
        s40 = r3
        r3 = sub(m, r0, 1)
        fp = ubfx(m, r5, 28, 1)
        str_sp(m)                                  # [sp, #32]
        s32 = r3
        r3 = sbfx(m, r5, 25, 1)
        str_sp(m)                                  # [sp, #60]
        s60 = r3
        r3 = add(m, fp, -1)
        sl = ubfx(m, r5, 30, 1)
        str_sp(m)                                  # [sp, #64]
        s64 = r3
        r3 = rsb(m, fp, 0)
        str_sp(m)                                  # [sp, #48]
        s48 = r3
        r3 = add(m, sl, -1)
        r9 = ubfx(m, r5, 29, 1)
        str_sp(m)                                  # [sp, #56]
        s56 = r3
        r3 = rsb(m, sl, 0)
        r6 = ubfx(m, r5, 26, 1)
        str_sp(m)                                  # [sp, #36]
        s36 = r3
        r3 = rsb(m, r9, 0)
        lr = ubfx(m, r5, 27, 1)
        r0 = asr(m, r2, 2)                         # 270: DIV_POW2(MUL_SAT(x2, x2), 2)
        str_sp(m)                                  # [sp, #52]
        s52 = r3
        r3 = add(m, r6, -1)
        fp = rsb(m, lr, 0)
        sl = add(m, r9, -1)
        r7 = lsr(m, r7, 31)                        # (x < 0) ^ (x2 < 0)
        r9 = add(m, lr, -1)
        r2 = and_(m, r2, 3)                        # remainder
        r5 = sbfx(m, r5, 24, 1)
        str_sp(m)                                  # [sp, #44]
        s44 = r3
        r6 = rsb(m, r6, 0)
        it(m, 1)                                   # 296: ite pl  (threshold 1, 2 if negative)
        if r0 >= 0:
            lr = mov(m, 1)
        else:
            lr = mov(m, 2)
    # 2a0
    cmp(m, lr, r2)                                 # if (remainder > threshold)
    ldr_sp(m)                                      # [sp, #24]
    r3 = s24
    it(m, lr >= r2)
    if lr < r2:
        r0 = add(m, r0, 1)                         #     result++;
    # MUL_SAT(x2, x): the product's halves are in [sp, #24], [sp, #28]
    cmp(m, r7, 0)
    r2, r7 = _rounding(m, r7 != 0)
    carry = carry_of_add(r2, r3)
    r2 = add(m, r2, r3)
    ldr_sp(m)                                      # [sp, #28]
    r7 = adc(m, r7, s28, carry)
    cmp(m, r7, 0)
    bcc(m, r7 >= 0)
    if r7 < 0:
        r2, r7 = _toward_zero(m, r2, r7, True)
    r2 = lsr(m, r2, 31)
    r2 = orr(m, r2, r7 << 1)
    r2 = add(m, r2, r0)                            # DIV_POW2(MUL_SAT(x2, x2), 2) + MUL_SAT(x2, x)
    # MUL_SAT(..., 715827883)
    r3 = lsr(m, r2, 31)
    cmp(m, r3, 0)
    ldr_lit(m)
    r7 = 715827883
    r3, r0 = _rounding(m, r3 != 0)
    r3, r0 = smlal(m, r3, r0, r2, r7)
    cmp(m, r0, 0)
    bcc(m, r0 >= 0)
    if r0 < 0:
        r3, r0 = _toward_zero(m, r3, r0, True)
    ldr_sp(m)                                      # 300: x2
    r2 = s20
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r0 << 1)
    r2 = add(m, r2, r3)                            # ... + x2
    r3 = asr(m, r2, 1)                             # DIV_POW2(..., 1)
    bcc(m, r3 < 0)
    if r3 >= 0:
        r7 = lsl(m, r2, 31)
        it(m, r7 >= 0)
        if r7 < 0:
            r3 = add(m, r3, 1)
    r3 = add(m, r3, r4)                            # 314: x + DIV_POW2(...)
    # MUL_SAT(1895147668, x + ...)
    r2 = lsr(m, r3, 31)
    cmp(m, r2, 0)
    r2, r0 = _rounding(m, r2 != 0)
    cmp(m, r1, 0)                                  # 328: mask = MASK_IF_ZERO(val);
    bcc(m, r1 != 0)
    if r1 == 0:
        r3 = mov(m, 0x80000)                       # DIV_POW2(NN_Q31_MAX, ACCUM_BITS)
        b(m)                                       # b.n 15c
    else:
        r1 = ldr_lit(m)                            # 6c
        r1 = 1895147668
        r2, r0 = smlal(m, r2, r0, r3, r1)
        cmp(m, r0, 0)
        bcc(m, r0 >= 0)
        if r0 < 0:
            r2, r0 = _toward_zero(m, r2, r0, True)
        r2 = lsr(m, r2, 31)                        # 82
        r2 = orr(m, r2, r0 << 1)
        r2 = add(m, r2, 0x71000000)                # int32_t result = 1895147668 + MUL_SAT(...);
        r3 = mov(m, 1 << 30)
        r1 = mov(m, 0)
        ldr_lit(m)
        lr = 1672461947
        ldr_sp(m)                                  # [sp, #32]
        r4 = s32
        r2 = sub(m, r2, 0xA5000)
        r2 = sub(m, r2, 1900)
        # SELECT_IF_NON_ZERO(1672461947)
        r0 = mov(m, r3)
        r7 = mov(m, r1)
        r0, r7 = smlal(m, r0, r7, r2, lr)
        r0 = lsr(m, r0, 31)
        r0 = orr(m, r0, r7 << 1)
        r4 = and_(m, r4, r2)
        r2 = and_(m, r5, r0)
        ldr_lit(m)
        r5 = 1302514674
        r2 = eor(m, r2, r4)
        # SELECT_IF_NON_ZERO(1302514674)
        r0 = mov(m, r3)
        r7 = mov(m, r1)
        ldr_sp(m)                                  # [sp, #40]
        r4 = s40
        r0, r7 = smlal(m, r0, r7, r2, r5)
        r4 = and_(m, r4, r2)
        r0 = lsr(m, r0, 31)
        ldr_sp(m)                                  # [sp, #60]
        r2 = s60
        ldr_sp(m)                                  # [sp, #44]
        r5 = s44
        r0 = orr(m, r0, r7 << 1)
        r2 = and_(m, r2, r0)
        ldr_lit(m)
        r7 = 790015084
        r2 = eor(m, r2, r4)
        # SELECT_IF_NON_ZERO(790015084)
        r0 = mov(m, r3)
        r4 = mov(m, r1)
        r0, r4 = smlal(m, r0, r4, r2, r7)
        r0 = lsr(m, r0, 31)
        r0 = orr(m, r0, r4 << 1)
        r5 = and_(m, r5, r2)
        ldr_lit(m)
        r4 = 290630308
        r6 = and_(m, r6, r0)
        r6 = eor(m, r6, r5)
        # SELECT_IF_NON_ZERO(290630308)
        r2 = mov(m, r3)
        r0 = mov(m, r1)
        r2, r0 = smlal(m, r2, r0, r6, r4)
        r2 = lsr(m, r2, 31)
        r2 = orr(m, r2, r0 << 1)
        fp = and_(m, fp, r2)
        r9 = and_(m, r6, r9)
        ldr_sp(m)                                  # [sp, #64]
        r2 = s64
        ldr_lit(m)
        r5 = 39332535
        fp = eor(m, fp, r9)
        # SELECT_IF_NON_ZERO(39332535)
        r0 = and_(m, fp, r2)
        r4 = mov(m, r1)
        r2 = mov(m, r3)
        r2, r4 = smlal(m, r2, r4, fp, r5)
        r2 = lsr(m, r2, 31)
        r2 = orr(m, r2, r4 << 1)
        ldr_sp(m)                                  # [sp, #48]
        r4 = s48
        ldr_lit(m)
        r5 = 720401
        r4 = and_(m, r4, r2)
        r2 = mov(m, r4)
        r2 = eor(m, r2, r0)
        # SELECT_IF_NON_ZERO(720401)
        r4 = mov(m, r1)
        r0 = mov(m, r3)
        r0, r4 = smlal(m, r0, r4, r2, r5)
        sl = and_(m, r2, sl)
        r0 = lsr(m, r0, 31)
        ldr_sp(m)                                  # [sp, #52]
        r2 = s52
        r0 = orr(m, r0, r4 << 1)
        r2 = and_(m, r2, r0)
        r2 = eor(m, sl, r2)
        # SELECT_IF_NON_ZERO(242)
        ldr_sp(m)                                  # [sp, #56]
        r0 = s56
        r4 = mov(m, 242)
        r3, r1 = smlal(m, r3, r1, r2, r4)
        r0 = and_(m, r0, r2)
        r3 = lsr(m, r3, 31)
        ldr_sp(m)                                  # [sp, #36]
        r2 = s36
        r3 = orr(m, r3, r1 << 1)
        r2 = and_(m, r2, r3)
        r0 = eor(m, r0, r2)                        # EXP_ON_NEG(...)
        # DIV_POW2(..., ACCUM_BITS)
        r3 = asr(m, r0, 12)                        # 154: result = dividend >> exponent;
        r0 = lsl(m, r0, 20)                        # remainder > threshold: bit 11 set
        bcc(m, r0 < 0)
        if r0 < 0:
            r3 = add(m, r3, 1)                     # dd4: result++;
            b(m)                                   # b.w 15c
    ldr_sp(m)                                      # 15c: sum += ...
    total = add(m, total, r3)
    str_sp(m)
    return ip, total


@kernel
def _reciprocal(m, total, after_sum):
    """headroom = CLZ(sum); shifted_scale = ONE_OVER1((sum > 0 ? sum << headroom : 0) -
    (1 << 31)) (0x3aa-0x552 and the blocks gcc moved to 0xd3a-0xe36): the reciprocal's three
    Newton steps with their saturating MUL_POW2, in gcc's branch structure, the same in both
    builds but for the order of a few instructions.  `after_sum`: entered from the sum loop
    (0x3aa's loads and test), else from a row of no column (0xdfc).  Returns (headroom,
    shifted_scale)."""
    r8 = ROUND_NEGATIVE
    if after_sum:
        ldr_sp(m)                                  # 3aa: sum
        ldr_sp(m)                                  # max
        ldr_sp(m)                                  # the output row
        cmp(m, total, 0)
        bcc(m, total == 0)                         # beq dfc
    if total == 0:
        # dfc: CLZ(0) = 32, half_denominator = -1; the first step's x a constant
        r6 = mov(m, -1)
        if m.dsp:
            ldr_lit(m)
            r2 = mov(m, r6)
            r3 = mov(m, r6)
            lr = mov(m, 32)
            r5 = mov(m, 1 << 30)
            sl = mov(m, 0)
        else:
            lr = mov(m, 32)
            r5 = mov(m, 1 << 30)
            sl = mov(m, 0)
            r2 = mov(m, r6)
            r3 = mov(m, r6)
            ldr_lit(m)
        r1 = -0x4B4B4B4A                           # 0xb4b4b4b6
        b(m)                                       # b.w 468
    else:
        lr = clz(m, total)                         # 3ba: headroom = CLZ(sum)
        r3 = lsl(m, total, lr)
        r3 = add(m, r3, INT32_MIN)                 # val = (sum << headroom) - (1 << 31)
        # half_denominator = (val + NN_Q31_MAX + 1) / 2 (sum >= 0), 64-bit
        carry = carry_of_add(r3, INT32_MIN)
        r2 = add(m, r3, INT32_MIN)
        r3 = asr(m, r3, 31)
        r3 = adc(m, r3, 0, carry)
        r2 = lsr(m, r2, 1)
        r2 = orr(m, r2, r3 << 31)
        ldr_lit(m)                                 # -1010580540
        r3 = asr(m, r3, 1)
        # x = 1515870810 + MUL_SAT(half_denominator, -1010580540)
        r4 = rsb(m, r2, 0)
        r4 = mla(m, -1010580540, r3, r4)
        r1, r0 = umull(m, r2, -1010580540)
        carry = carry_of_add(r1, r8)
        r1 = add(m, r1, r8)
        r0 = add(m, r0, r4)
        r0 = sbc(m, r0, 0, carry)
        cmp(m, r0, 0)
        r6 = mov(m, r2)
        bcc(m, r0 >= 0)
        if r0 < 0:
            r1, r0 = _toward_zero(m, r1, r0, True)
        r1 = lsr(m, r1, 31)                        # 402
        r1 = orr(m, r1, r0 << 1)
        r1 = add(m, r1, 1515870810)
        # step 1: x += MUL_POW2(MUL_SAT(x, shift - MUL_SAT(half_denominator, x)), 2);
        if m.dsp:
            r0 = asr(m, r1, 31)
            r5 = mul(m, r1, r3)
        else:
            r5 = mul(m, r1, r3)
            r0 = asr(m, r1, 31)
        r5 = mla(m, r2, r0, r5)
        r0, r4 = umull(m, r1, r2)
        carry = carry_of_add(r0, 1 << 30)
        r0 = add(m, r0, 1 << 30)
        r4 = adc(m, r5, r4, carry)
        r0 = lsr(m, r0, 31)
        r0 = orr(m, r0, r4 << 1)
        r0 = rsb(m, r0, 1 << 29)
        r5 = eor(m, r0, r1)
        r5 = lsr(m, r5, 31)
        bcc(m, r5 == 0)                            # beq dda
        if r5 == 0:
            r4 = mov(m, 1 << 30)                   # dda
            r4, r5 = smlal(m, r4, r5, r1, r0)
            cmp(m, r5, 0)
            bcc(m, r5 >= 0)                        # bge.w 446
        else:
            r5 = mov(m, -1)                        # 436
            r4 = mov(m, r8)
            r4, r5 = smlal(m, r4, r5, r1, r0)
            cmp(m, r5, 0)
            bcc(m, r5 < 0)                         # blt.w de8
        if r5 < 0:
            r4, r5 = _toward_zero(m, r4, r5, True)     # de8
            b(m)                                   # b.w 446
        r4 = lsr(m, r4, 31)                        # 446
        r4 = orr(m, r4, r5 << 1)
        r4 = lsl(m, r4, 2)
        r1 = add(m, r1, r4)
        # step 2
        r0 = eor(m, r1, r2)
        r0 = lsr(m, r0, 31)
        cmp(m, r0, 0)
        r5, sl = _rounding(m, r0 != 0)
    if m.dsp:                                      # 468: MUL_SAT(half_denominator, x)
        r0 = asr(m, r1, 31)
        r4 = mul(m, r1, r3)
    else:
        r4 = mul(m, r1, r3)
        r0 = asr(m, r1, 31)
    r4 = mla(m, r2, r0, r4)
    r0, r9 = umull(m, r1, r2)
    carry = carry_of_add(r0, r5)
    r0 = add(m, r0, r5)
    r4 = add(m, r4, r9)
    r4 = adc(m, r4, sl, carry)
    cmp(m, r4, 0)
    bcc(m, r4 >= 0)
    if r4 < 0:
        r0, r4 = _toward_zero(m, r0, r4, True)
    r0 = lsr(m, r0, 31)                            # 48e
    r0 = orr(m, r0, r4 << 1)
    r0 = rsb(m, r0, 1 << 29)
    r4 = eor(m, r0, r1)                            # MUL_SAT(x, ...)
    r4 = lsr(m, r4, 31)
    cmp(m, r4, 0)
    r4, r5 = _rounding(m, r4 != 0)
    r4, r5 = smlal(m, r4, r5, r1, r0)
    cmp(m, r5, 0)
    bcc(m, r5 >= 0)
    if r5 < 0:
        r4, r5 = _toward_zero(m, r4, r5, True)
    r4 = lsr(m, r4, 31)                            # 4c2
    r4 = orr(m, r4, r5 << 1)
    # MUL_POW2(., 2): saturate above (1 << 29) - 1 or below -((1 << 29) - 1)
    cmp(m, r4, 1 << 29)
    bcc(m, r4 >= 1 << 29)                          # bge.w dba
    mid = True
    if r4 >= 1 << 29:
        r4 = mvn(m, INT32_MIN)                     # dba
    else:
        cmp(m, r4, -(1 << 29))                     # 4d0
        bcc(m, r4 > -(1 << 29))                    # bgt.w e16
        if r4 > -(1 << 29):
            r4 = lsl(m, r4, 2)                     # e16
            b(m)                                   # b.n dbe
        else:
            mid = False
    # step 3; `central`: the MUL_SAT(x, ...) below is the 0xd40 copy, else the 0x4e4 one
    if mid:
        r1 = add(m, r1, r4)                        # dbe
        teq(m, r1, r6)                             # (m1 < 0) ^ (m2 < 0)
        bcc(m, (r1 ^ r6) >= 0)                     # bpl d3a
        central = True
        if (r1 ^ r6) >= 0:
            r0 = mov(m, 1 << 30)                   # d3a
            r4 = mov(m, 0)
        else:
            r0 = mov(m, r8)                        # dc6
            r4 = mov(m, -1)
            b(m)                                   # b.n d40
    else:
        r1 = add(m, r1, INT32_MIN)                 # 4d8
        teq(m, r1, r6)
        bcc(m, (r1 ^ r6) >= 0)                     # bpl.w d3a
        central = (r1 ^ r6) >= 0
        if central:
            r0 = mov(m, 1 << 30)                   # d3a
            r4 = mov(m, 0)
    if central:
        if m.dsp:                                  # d40: MUL_SAT(half_denominator, x)
            r5 = asr(m, r1, 31)
            r3 = mul(m, r1, r3)
        else:
            r3 = mul(m, r1, r3)
            r5 = asr(m, r1, 31)
        r3 = mla(m, r2, r5, r3)
        r2, r5 = umull(m, r1, r2)
        carry = carry_of_add(r2, r0)
        r2 = add(m, r2, r0)
        r3 = add(m, r3, r5)
        r3 = adc(m, r3, r4, carry)
        cmp(m, r3, 0)
        bcc(m, r3 >= 0)
        if r3 < 0:
            r2, r3 = _toward_zero(m, r2, r3, True)
        r2 = lsr(m, r2, 31)                        # d66
        r2 = orr(m, r2, r3 << 1)
        r2 = rsb(m, r2, 1 << 29)
        r3 = eor(m, r2, r1)                        # MUL_SAT(x, ...)
        r3 = lsr(m, r3, 31)
        cmp(m, r3, 0)
        r3, r0 = _rounding(m, r3 != 0)
        r3, r0 = smlal(m, r3, r0, r1, r2)
        cmp(m, r0, 0)
        bcc(m, r0 >= 0)
        if r0 < 0:
            r3, r0 = _toward_zero(m, r3, r0, True)
        r3 = lsr(m, r3, 31)                        # d9a
        r3 = orr(m, r3, r0 << 1)
        cmp(m, r3, 1 << 29)
        bcc(m, r3 < 1 << 29)                       # blt.w 536
        if r3 >= 1 << 29:
            r3 = mvn(m, INT32_MIN)                 # da8: saturated
            r1 = add(m, r1, r3)
            cmp(m, r1, 1 << 30)                    # return MUL_POW2(x, 1);
            bcc(m, r1 < 1 << 30)
            if r1 < 1 << 30:
                r3 = lsl(m, r1, 1)                 # e1a
            str_sp(m)                              # [sp, #20] = shifted_scale
            b(m)                                   # b.w 554
            return lr, r3
    else:
        r3 = mul(m, r1, r3)                        # 4e4: MUL_SAT(half_denominator, x)
        r0 = asr(m, r1, 31)
        r0 = mla(m, r2, r0, r3)
        r2, r3 = umull(m, r1, r2)
        carry = carry_of_add(r2, r8)
        r2 = add(m, r2, r8)
        r3 = add(m, r3, r0)
        r3 = sbc(m, r3, 0, carry)
        cmp(m, r3, 0)
        bcc(m, r3 >= 0)
        if r3 < 0:
            r2, r3 = _toward_zero(m, r2, r3, True)
        r2 = lsr(m, r2, 31)                        # 50c
        r2 = orr(m, r2, r3 << 1)
        if m.dsp:
            r2 = rsb(m, r2, 1 << 29)
        r0 = mov(m, -1)                            # MUL_SAT(x, ...), x < 0
        r3 = mov(m, r8)
        if not m.dsp:
            r2 = rsb(m, r2, 1 << 29)
        r3, r0 = smlal(m, r3, r0, r2, r1)
        cmp(m, r0, 0)
        bcc(m, r0 >= 0)
        if r0 < 0:
            r3, r0 = _toward_zero(m, r3, r0, True)
        r3 = lsr(m, r3, 31)                        # 530
        r3 = orr(m, r3, r0 << 1)
    cmp(m, r3, -(1 << 29))                         # 536
    bcc(m, r3 > -(1 << 29))                        # bgt.w e22
    if r3 > -(1 << 29):
        r3 = add(m, r1, r3 << 2)                   # e22: x += MUL_POW2(..., 2)
        r2 = lsl(m, r3, 1)
        cmp(m, r3, 1 << 30)                        # return MUL_POW2(x, 1);
        str_sp(m)
        bcc(m, r3 < 1 << 30)                       # blt.w 546
        if r3 >= 1 << 30:
            r3 = mvn(m, INT32_MIN)                 # e32
            b(m)                                   # b.n db4
            str_sp(m)                              # db4
            b(m)                                   # b.w 554
            return lr, r3
    else:
        r2 = lsl(m, r1, 1)                         # 53e: x += NN_Q31_MIN (saturated)
        r3 = add(m, r1, INT32_MIN)
        str_sp(m)
    cmp(m, r3, -(1 << 30))                         # 546: below -((1 << 30) - 1): NN_Q31_MIN
    ldr_sp(m)
    it(m, r3 > -(1 << 30))
    if r3 <= -(1 << 30):
        r2 = mov(m, INT32_MIN)
    str_sp(m)
    return lr, r2


@kernel
def _m4_output_s16(m, diff, mult, shift, scale, bits, remainder_mask, threshold):
    """One computed int16 output (0x59c-0x8a2, 0x902-0x962): CLAMP(DIV_POW2(MUL_SAT(
    shifted_scale, EXP_ON_NEG(MUL_SAT(diff * mask, mult))), bits_over_unit) + NN_Q15_MIN,
    NN_Q15_MAX, NN_Q15_MIN).  Returns the value STRH stores."""
    ldr_sp(m)                                      # 59c: shift
    ldr_sp(m)                                      # mult
    r3 = lsl(m, diff, shift)                       # MUL_SAT(diff * mask, mult)
    r2 = lsr(m, eor(m, mult, r3), 31)
    cmp(m, r2, 0)
    r1, r2 = _rounding(m, r2 != 0)
    r1, r2 = smlal(m, r1, r2, mult, r3)
    cmp(m, r2, 0)
    bcc(m, r2 >= 0)
    if r2 < 0:
        r1, r2 = _toward_zero(m, r1, r2, True)
    r1 = lsr(m, r1, 31)                            # 5cc
    r1 = orr(m, r1, r2 << 1)                       # val
    ldr_sp(m)                                      # mult
    cmp(m, mult, r3)
    bcc(m, mult == r3)
    saturated = False
    if mult == r3:
        ldr_sp(m)                                  # 906
        cmp(m, mult, INT32_MIN)
        bcc(m, mult != INT32_MIN)
        saturated = mult == INT32_MIN
    if saturated:
        r2 = mov(m, 0)                             # 910: EXP_ON_NEG(NN_Q31_MAX)'s constants
        r3 = mov(m, -1)
        ldr_lit(m)
        str_sp(m)
        strd_sp(m)
        strd_sp(m)
        str_sp(m)
        str_sp(m)
        str_sp(m)
        s64, s32, s36, s44, s48, s72, s60, s28 = -1, -1, -1, -1, 0, 0x40000100, -1, -1
        r4 = mov(m, r3)
        fp = mov(m, r3)
        strd_sp(m)
        s52, s56 = 0, 0
        ldr_lit(m)
        r0 = 0x0FFFFFE0
        ldr_lit(m)
        ip = 0x01FFFFF8
        ldr_lit(m)
        lr = 0x001FFFFF
        str_sp(m)
        s40 = 0
        r1 = mov(m, 0x20000)
        r9 = mov(m, r2)
        sl = mov(m, r2)
        r7 = mov(m, r2)
        r6 = mov(m, r2)
        r5 = mov(m, r2)
        r3 = mov(m, 1)
        b(m)                                       # b.n 6d4
    else:
        r4 = orr(m, r1, -0x1000000)                # 5da: val_mod_minus_quarter
        r0 = lsl(m, r4, 5)
        r4 = sub(m, r4, r1)                        # remainder
        sl = ubfx(m, r4, 30, 1)
        r2 = add(m, sl, -1)
        r9 = ubfx(m, r4, 28, 1)
        r0 = add(m, r0, 1 << 28)                   # x
        r3 = mov(m, 1 << 30)                       # MUL_SAT(x, x)
        r5 = mov(m, 0)
        r7 = ubfx(m, r4, 24, 1)
        str_sp(m)
        s64 = r2
        r2 = add(m, r9, -1)
        r3, r5 = smlal(m, r3, r5, r0, r0)
        r6 = ubfx(m, r4, 25, 1)
        str_sp(m)
        s60 = r2
        r2 = sub(m, r7, 1)
        str_sp(m)
        s32 = r2
        cmp(m, r5, 0)
        r2 = add(m, r6, -1)
        str_sp(m)
        s36 = r2
        bcc(m, r5 >= 0)
        if r5 < 0:
            r3, r5 = _toward_zero(m, r3, r5, True)
        r3 = lsr(m, r3, 31)                        # 626
        r3 = orr(m, r3, r5 << 1)                   # x2
        r2, lr = umull(m, r3, r3)                  # MUL_SAT(x2, x2)
        r5 = asr(m, r5, 31)
        carry = carry_of_add(r2, 1 << 30)
        r2 = add(m, r2, 1 << 30)
        fp = mul(m, r3, r5)
        lr = adc(m, lr, fp << 1, carry)
        cmp(m, lr, 0)
        ip = mov(m, r3)
        bcc(m, lr >= 0)
        if lr < 0:
            r2, lr = _toward_zero(m, r2, lr, True)
        r2 = lsr(m, r2, 31)                        # 654
        r2 = orr(m, r2, lr << 1)
        lr = rsb(m, sl, 0)
        r5 = mul(m, r0, r5)                        # x2 * x, 64-bit
        r1 = clz(m, r1)                            # mask = MASK_IF_ZERO(val)
        str_sp(m)
        s56 = lr
        sl = asr(m, r0, 31)
        lr = rsb(m, r9, 0)
        sl = mla(m, r3, sl, r5)
        r1 = lsr(m, r1, 5)
        r9 = eor(m, r3, r0)
        str_sp(m)
        s52 = lr
        r3, lr = umull(m, r0, r3)
        str_sp(m)
        s72 = r3
        lr = add(m, lr, sl)
        r3 = sub(m, r1, 1)
        sl = rsb(m, r1, 0)
        r1 = ubfx(m, r4, 27, 1)
        fp = add(m, r1, -1)
        r1 = ubfx(m, r4, 29, 1)
        str_sp(m)
        s28 = r3
        r3 = sub(m, r1, 1)
        str_sp(m)
        s44 = r3
        r3 = sbfx(m, r4, 27, 1)
        r1 = asr(m, r2, 2)                         # DIV_POW2(MUL_SAT(x2, x2), 2)
        r5 = ubfx(m, r4, 26, 1)
        str_sp(m)
        s40 = r3
        r3 = sbfx(m, r4, 29, 1)
        str_sp(m)
        s48 = r3
        r4 = add(m, r5, -1)
        r7 = rsb(m, r7, 0)
        r6 = rsb(m, r6, 0)
        r9 = lsr(m, r9, 31)
        sl = bic(m, sl, INT32_MIN)
        r2 = and_(m, r2, 3)
        r5 = rsb(m, r5, 0)
        it(m, 1)                                   # 6ce: ite pl
        if r1 >= 0:
            r3 = mov(m, 1)
        else:
            r3 = mov(m, 2)
    cmp(m, r2, r3)                                 # 6d4: if (remainder > threshold)
    it(m, r2 <= r3)
    if r2 > r3:
        r1 = add(m, r1, 1)
    ldr_sp(m)                                      # MUL_SAT(x2, x)
    r3 = s72
    cmp(m, r9, 0)
    r2, r9 = _rounding(m, r9 != 0)
    carry = carry_of_add(r2, r3)
    r2 = add(m, r2, r3)
    r9 = adc(m, lr, r9, carry)
    cmp(m, r9, 0)
    bcc(m, r9 >= 0)
    if r9 < 0:
        r2, r9 = _toward_zero(m, r2, r9, True)
    r2 = lsr(m, r2, 31)                            # 708
    r2 = orr(m, r2, r9 << 1)
    r2 = add(m, r2, r1)
    r3 = lsr(m, r2, 31)                            # MUL_SAT(..., 715827883)
    cmp(m, r3, 0)
    ldr_lit(m)
    r3, r1 = _rounding(m, r3 != 0)
    r3, r1 = smlal(m, r3, r1, r2, 715827883)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r3, r1 = _toward_zero(m, r3, r1, True)
    r3 = lsr(m, r3, 31)                            # 73a
    r3 = orr(m, r3, r1 << 1)
    ip = add(m, ip, r3)                            # ... + x2
    r3 = asr(m, ip, 1)                             # DIV_POW2(..., 1)
    bcc(m, r3 < 0)
    if r3 >= 0:
        tst(m, ip, 1)
        it(m, (ip & 1) == 0)
        if ip & 1:
            r3 = add(m, r3, 1)
    r3 = add(m, r3, r0)                            # 750: x + ...
    r2 = lsr(m, r3, 31)                            # MUL_SAT(1895147668, ...)
    cmp(m, r2, 0)
    ldr_lit(m)
    r2, r1 = _rounding(m, r2 != 0)
    r2, r1 = smlal(m, r2, r1, r3, 1895147668)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r2, r1 = _toward_zero(m, r2, r1, True)
    r2 = lsr(m, r2, 31)                            # 77a
    r2 = orr(m, r2, r1 << 1)
    r2 = add(m, r2, 0x71000000)                    # result = 1895147668 + ...
    ldr_sp(m)
    ldr_lit(m)
    r2 = sub(m, r2, 0xA5000)
    r2 = sub(m, r2, 1900)
    r1 = mov(m, 0)
    ip = and_(m, s32, r2)                          # SELECT_IF_NON_ZERO(1672461947)
    r3 = mov(m, 1 << 30)
    r0 = mov(m, r3)
    lr = mov(m, r1)
    r0, lr = smlal(m, r0, lr, r2, 1672461947)
    r0 = lsr(m, r0, 31)
    r0 = orr(m, r0, lr << 1)
    r7 = and_(m, r7, r0)
    ldr_lit(m)
    ldr_sp(m)
    r7 = eor(m, ip, r7)
    r2 = mov(m, r3)                                # SELECT_IF_NON_ZERO(1302514674)
    ip = mov(m, r1)
    r2, ip = smlal(m, r2, ip, r7, 1302514674)
    r2 = lsr(m, r2, 31)
    r2 = orr(m, r2, ip << 1)
    r0 = and_(m, s36, r7)
    r6 = and_(m, r6, r2)
    ldr_lit(m)
    r6 = eor(m, r6, r0)
    r2 = mov(m, r3)                                # SELECT_IF_NON_ZERO(790015084)
    r0 = mov(m, r1)
    r2, r0 = smlal(m, r2, r0, r6, 790015084)
    r2 = lsr(m, r2, 31)
    r2 = orr(m, r2, r0 << 1)
    r4 = and_(m, r4, r6)
    r5 = and_(m, r5, r2)
    r5 = eor(m, r5, r4)
    ldr_lit(m)
    ldr_lit(m)
    r2 = mov(m, r3)                                # SELECT_IF_NON_ZERO(290630308)
    r0 = mov(m, r1)
    r2, r0 = smlal(m, r2, r0, r5, 290630308)
    r2 = lsr(m, r2, 31)
    r2 = orr(m, r2, r0 << 1)
    ldr_sp(m)
    ldr_sp(m)
    fp = and_(m, fp, r5)
    r0 = and_(m, s40, r2)
    r2 = eor(m, fp, r0)
    r5 = mov(m, r1)                                # SELECT_IF_NON_ZERO(39332535)
    r0 = mov(m, r3)
    r0, r5 = smlal(m, r0, r5, r2, 39332535)
    r4 = and_(m, s60, r2)
    r0 = lsr(m, r0, 31)
    ldr_sp(m)
    ldr_lit(m)
    r0 = orr(m, r0, r5 << 1)
    r2 = and_(m, s52, r0)
    r2 = eor(m, r2, r4)
    r0 = mov(m, r3)                                # SELECT_IF_NON_ZERO(720401)
    r5 = mov(m, r1)
    ldr_sp(m)
    r0, r5 = smlal(m, r0, r5, r2, 720401)
    r4 = and_(m, s44, r2)
    r0 = lsr(m, r0, 31)
    ldr_sp(m)
    r0 = orr(m, r0, r5 << 1)
    r2 = and_(m, s48, r0)
    r0 = mov(m, r2)
    r0 = eor(m, r0, r4)
    r4 = mov(m, 242)                               # SELECT_IF_NON_ZERO(242)
    r3, r1 = smlal(m, r3, r1, r0, r4)
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r1 << 1)
    ldr_sp(m)
    ldr_sp(m)
    r2 = and_(m, s64, r0)
    r1 = and_(m, s56, r3)
    ldr_sp(m)
    ldr_sp(m)                                      # shifted_scale
    r2 = eor(m, r2, r1)
    r2 = and_(m, r2, s28)                          # SELECT_USING_MASK(mask, NN_Q31_MAX, result)
    r2 = eor(m, r2, sl)
    r3 = lsr(m, eor(m, r2, scale), 31)             # MUL_SAT(shifted_scale, ...)
    cmp(m, r3, 0)
    r3, r1 = _rounding(m, r3 != 0)
    r3, r1 = smlal(m, r3, r1, r2, scale)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r3, r1 = _toward_zero(m, r3, r1, True)
    ldr_sp(m)                                      # 87c: bits_over_unit
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r1 << 1)
    r2 = asr(m, r3, bits)                          # DIV_POW2(..., bits_over_unit)
    bcc(m, r2 < 0)                                 # bmi 902: below NN_Q15_MIN
    if r2 < 0:
        ldr_lit(m)                                 # 902: NN_Q15_MIN
        b(m)
        return NN_Q15_MIN
    ldr_sp(m)
    r3 = and_(m, r3, remainder_mask)
    ldr_sp(m)
    cmp(m, threshold, r3)                          # if (remainder > threshold)
    bcc(m, threshold >= r3)                        # bge 94e
    if threshold >= r3:
        r3 = sub(m, r2, 32768)                     # 94e: res = result + NN_Q15_MIN
        cmp(m, r2, 0)
        bcc(m, r2 == 0)
        if r2 == 0:
            return r3
        mov(m, 32766)
        cmp(m, r3, 32766)
        bcc(m, r3 <= 32766)                        # ble 8a2
        if r3 <= 32766:
            return sxth(m, r3, 0)
    else:
        r3 = sub(m, r2, 32640)                     # 894: res = result + 1 + NN_Q15_MIN
        r3 = sub(m, r3, 127)
        mov(m, 32766)
        cmp(m, r3, 32766)
        bcc(m, r3 > 32766)                         # bgt 95e
        if r3 <= 32766:
            return sxth(m, r3, 0)                  # 8a2
    r3 = mov(m, NN_Q15_MAX)                        # 95e
    b(m)
    return r3


@kernel
def _m4_output_s8(m, diff, mult, shift, scale, bits, remainder_mask, threshold):
    """One computed int8 output (0x9c0-0xcb6, 0xcdc-0xd38): as _m4_output_s16 with
    NN_Q7_MIN / NN_Q7_MAX.  Returns the value STRB stores."""
    ldr_sp(m)                                      # 9c0: shift
    ldr_sp(m)                                      # mult
    r3 = lsl(m, diff, shift)                       # MUL_SAT(diff * mask, mult)
    r2 = lsr(m, eor(m, mult, r3), 31)
    cmp(m, r2, 0)
    r2, r1 = _rounding(m, r2 != 0)
    r2, r1 = smlal(m, r2, r1, mult, r3)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r2, r1 = _toward_zero(m, r2, r1, True)
    r2 = lsr(m, r2, 31)                            # 9f0
    r2 = orr(m, r2, r1 << 1)                       # val
    ldr_sp(m)
    cmp(m, mult, r3)
    bcc(m, mult == r3)
    saturated = False
    if mult == r3:
        ldr_sp(m)                                  # ce2
        cmp(m, mult, INT32_MIN)
        bcc(m, mult != INT32_MIN)
        saturated = mult == INT32_MIN
    if saturated:
        ldr_lit(m)                                 # cec: EXP_ON_NEG(NN_Q31_MAX)'s constants
        str_sp(m)
        s12 = 0x0FFFFFE0
        r2 = mov(m, 0)
        r4 = mov(m, -1)
        ldr_lit(m)
        str_sp(m)
        strd_sp(m)
        strd_sp(m)
        str_sp(m)
        str_sp(m)
        s72, s60, s64, s32, s36, s44, s48 = 0, 0, 0, -1, 0, 0x01FFFFF8, 0
        r1 = mov(m, r2)
        ip = mov(m, r2)
        r9 = mov(m, r2)
        str_sp(m)
        s40 = 0
        r6 = mov(m, r2)
        strd_sp(m)
        strd_sp(m)
        s52, s56, s24, s28 = -1, -1, -1, -1
        ldr_lit(m)
        r3 = 0x40000100
        ldr_lit(m)
        r5 = 0x001FFFFF
        str_sp(m)
        s76 = -1
        r7 = mov(m, r4)
        r0 = mov(m, 0x20000)
        sl = mov(m, r4)
        r2 = mov(m, 1)
        b(m)                                       # b.n af4
    else:
        r0 = orr(m, r2, -0x1000000)                # 9fe: val_mod_minus_quarter
        r4 = lsl(m, r0, 5)
        r0 = sub(m, r0, r2)                        # remainder
        r1 = add(m, r4, 1 << 28)                   # x
        r6 = ubfx(m, r0, 26, 1)
        r3 = mov(m, 1 << 30)                       # MUL_SAT(x, x)
        r5 = mov(m, 0)
        r4 = sub(m, r6, 1)
        r3, r5 = smlal(m, r3, r5, r1, r1)
        str_sp(m)
        s12 = r1
        r1 = ubfx(m, r0, 25, 1)
        str_sp(m)
        s56 = r4
        r4 = sub(m, r1, 1)
        r1 = rsb(m, r1, 0)
        str_sp(m)
        s48 = r1
        r1 = sbfx(m, r0, 29, 1)
        str_sp(m)
        s72 = r1
        r1 = sbfx(m, r0, 28, 1)
        r6 = ubfx(m, r0, 24, 1)
        str_sp(m)
        s64 = r1
        r1 = sbfx(m, r0, 26, 1)
        str_sp(m)
        s60 = r1
        cmp(m, r5, 0)
        r1 = add(m, r6, -1)
        str_sp(m)
        s76 = r4
        sl = ubfx(m, r0, 29, 1)
        r9 = ubfx(m, r0, 28, 1)
        r7 = ubfx(m, r0, 27, 1)
        str_sp(m)
        s52 = r1
        bcc(m, r5 >= 0)
        if r5 < 0:
            r3, r5 = _toward_zero(m, r3, r5, True)
        r3 = lsr(m, r3, 31)                        # a62
        r3 = orr(m, r3, r5 << 1)                   # x2
        r1, ip = umull(m, r3, r3)                  # MUL_SAT(x2, x2)
        r5 = asr(m, r5, 31)
        carry = carry_of_add(r1, 1 << 30)
        r1 = add(m, r1, 1 << 30)
        r4 = mul(m, r3, r5)
        ip = adc(m, ip, r4 << 1, carry)
        cmp(m, ip, 0)
        str_sp(m)
        s44 = r3
        bcc(m, ip >= 0)
        if ip < 0:
            r1, ip = _toward_zero(m, r1, ip, False)
        ldr_sp(m)                                  # a8c: x
        r5 = mul(m, s12, r5)                       # x2 * x, 64-bit
        r4 = add(m, sl, -1)
        str_sp(m)
        s32 = r4
        ldr_sp(m)
        r4 = s12
        r1 = lsr(m, r1, 31)
        r2 = clz(m, r2)                            # mask = MASK_IF_ZERO(val)
        sl = add(m, r9, -1)
        r9 = asr(m, r4, 31)
        r1 = orr(m, r1, ip << 1)
        r9 = mla(m, r3, r9, r5)
        r2 = lsr(m, r2, 5)
        ip = eor(m, r3, r4)
        r3, r5 = umull(m, r4, r3)
        r5 = add(m, r5, r9)
        r9 = rsb(m, r2, 0)
        r2 = sub(m, r2, 1)
        str_sp(m)
        s28 = r2
        r2 = ubfx(m, r0, 30, 1)
        r2 = sub(m, r2, 1)
        r0 = sbfx(m, r0, 30, 1)
        str_sp(m)
        s36 = r0
        str_sp(m)
        s24 = r2
        r0 = asr(m, r1, 2)                         # DIV_POW2(MUL_SAT(x2, x2), 2)
        r2 = rsb(m, r7, 0)
        str_sp(m)
        s40 = r2
        r6 = rsb(m, r6, 0)
        ip = lsr(m, ip, 31)
        r9 = bic(m, r9, INT32_MIN)
        r1 = and_(m, r1, 3)
        r7 = add(m, r7, -1)
        it(m, 1)                                   # aee: ite pl
        if r0 >= 0:
            r2 = mov(m, 1)
        else:
            r2 = mov(m, 2)
    cmp(m, r2, r1)                                 # af4: if (remainder > threshold)
    it(m, r2 >= r1)
    if r2 < r1:
        r0 = add(m, r0, 1)
    cmp(m, ip, 0)                                  # MUL_SAT(x2, x)
    r1, ip = _rounding(m, ip != 0)
    carry = carry_of_add(r1, r3)
    r1 = add(m, r1, r3)
    ip = adc(m, r5, ip, carry)
    cmp(m, ip, 0)
    bcc(m, ip >= 0)
    if ip < 0:
        r1, ip = _toward_zero(m, r1, ip, True)
    r1 = lsr(m, r1, 31)                            # b26
    r1 = orr(m, r1, ip << 1)
    r1 = add(m, r1, r0)
    r3 = lsr(m, r1, 31)                            # MUL_SAT(..., 715827883)
    cmp(m, r3, 0)
    ldr_lit(m)
    r3, r0 = _rounding(m, r3 != 0)
    r3, r0 = smlal(m, r3, r0, r1, 715827883)
    cmp(m, r0, 0)
    bcc(m, r0 >= 0)
    if r0 < 0:
        r3, r0 = _toward_zero(m, r3, r0, True)
    ldr_sp(m)                                      # b56: x2
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r0 << 1)
    r1 = add(m, s44, r3)
    r3 = asr(m, r1, 1)                             # DIV_POW2(..., 1)
    bcc(m, r3 < 0)
    if r3 >= 0:
        r2 = lsl(m, r1, 31)
        it(m, r2 >= 0)
        if r2 < 0:
            r3 = add(m, r3, 1)
    ldr_sp(m)                                      # b6a: x
    ldr_lit(m)
    r3 = add(m, r3, s12)
    r1 = lsr(m, r3, 31)                            # MUL_SAT(1895147668, ...)
    cmp(m, r1, 0)
    r1, r0 = _rounding(m, r1 != 0)
    r1, r0 = smlal(m, r1, r0, r3, 1895147668)
    cmp(m, r0, 0)
    bcc(m, r0 >= 0)
    if r0 < 0:
        r1, r0 = _toward_zero(m, r1, r0, True)
    r1 = lsr(m, r1, 31)                            # b96
    r1 = orr(m, r1, r0 << 1)
    r1 = add(m, r1, 0x71000000)                    # result = 1895147668 + ...
    r3 = mov(m, 1 << 30)
    r0 = mov(m, 0)
    ldr_lit(m)
    ldr_sp(m)
    r1 = sub(m, r1, 0xA5000)
    r1 = sub(m, r1, 1900)
    r4 = mov(m, r3)                                # SELECT_IF_NON_ZERO(1672461947)
    ip = mov(m, r0)
    r4, ip = smlal(m, r4, ip, r1, 1672461947)
    r4 = lsr(m, r4, 31)
    r4 = orr(m, r4, ip << 1)
    r5 = and_(m, s52, r1)
    ldr_lit(m)
    r6 = and_(m, r6, r4)
    r6 = eor(m, r6, r5)
    r1 = mov(m, r3)                                # SELECT_IF_NON_ZERO(1302514674)
    r5 = mov(m, r0)
    r1, r5 = smlal(m, r1, r5, r6, 1302514674)
    r1 = lsr(m, r1, 31)
    r1 = orr(m, r1, r5 << 1)
    ldr_sp(m)
    ldr_sp(m)
    ldr_lit(m)
    r5 = and_(m, s48, r1)
    r4 = and_(m, s76, r6)
    r1 = mov(m, r5)
    r1 = eor(m, r1, r4)
    r6 = mov(m, r0)                                # SELECT_IF_NON_ZERO(790015084)
    r4 = mov(m, r3)
    ldr_sp(m)
    r4, r6 = smlal(m, r4, r6, r1, 790015084)
    r5 = and_(m, s56, r1)
    r4 = lsr(m, r4, 31)
    ldr_sp(m)
    ldr_lit(m)
    r4 = orr(m, r4, r6 << 1)
    r1 = and_(m, s60, r4)
    r1 = eor(m, r1, r5)
    r4 = mov(m, r3)                                # SELECT_IF_NON_ZERO(290630308)
    r5 = mov(m, r0)
    r4, r5 = smlal(m, r4, r5, r1, 290630308)
    r4 = lsr(m, r4, 31)
    ldr_sp(m)
    ldr_lit(m)
    r4 = orr(m, r4, r5 << 1)
    r7 = and_(m, r7, r1)
    ldr_lit(m)
    r2 = and_(m, s40, r4)
    r2 = eor(m, r2, r7)
    r1 = mov(m, r3)                                # SELECT_IF_NON_ZERO(39332535)
    r4 = mov(m, r0)
    r1, r4 = smlal(m, r1, r4, r2, 39332535)
    sl = and_(m, r2, sl)
    r1 = lsr(m, r1, 31)
    ldr_sp(m)
    r1 = orr(m, r1, r4 << 1)
    r2 = and_(m, s64, r1)
    r2 = eor(m, sl, r2)
    r1 = mov(m, r3)                                # SELECT_IF_NON_ZERO(720401)
    r5 = mov(m, r0)
    ldr_sp(m)
    r1, r5 = smlal(m, r1, r5, r2, 720401)
    r4 = and_(m, s32, r2)
    r1 = lsr(m, r1, 31)
    ldr_sp(m)
    r1 = orr(m, r1, r5 << 1)
    r2 = and_(m, s72, r1)
    r1 = mov(m, r2)
    r1 = eor(m, r1, r4)
    ldr_sp(m)                                      # SELECT_IF_NON_ZERO(242)
    r4 = mov(m, 242)
    r3, r0 = smlal(m, r3, r0, r1, r4)
    r2 = and_(m, s24, r1)
    r3 = lsr(m, r3, 31)
    ldr_sp(m)
    r3 = orr(m, r3, r0 << 1)
    r1 = and_(m, s36, r3)
    ldr_sp(m)
    ldr_sp(m)                                      # shifted_scale
    r2 = eor(m, r2, r1)
    r2 = and_(m, r2, s28)                          # SELECT_USING_MASK(mask, NN_Q31_MAX, result)
    r2 = eor(m, r2, r9)
    r3 = lsr(m, eor(m, r2, scale), 31)             # MUL_SAT(shifted_scale, ...)
    cmp(m, r3, 0)
    r3, r1 = _rounding(m, r3 != 0)
    r3, r1 = smlal(m, r3, r1, r2, scale)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r3, r1 = _toward_zero(m, r3, r1, True)
    ldr_sp(m)                                      # c96: bits_over_unit
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r1 << 1)
    r2 = asr(m, r3, bits)                          # DIV_POW2(..., bits_over_unit)
    bcc(m, r2 < 0)                                 # bmi cdc: below NN_Q7_MIN
    if r2 < 0:
        r3 = mvn(m, 127)                           # cdc
        b(m)
        return r3
    ldr_sp(m)
    r3 = and_(m, r3, remainder_mask)
    ldr_sp(m)
    cmp(m, threshold, r3)                          # if (remainder > threshold)
    bcc(m, threshold >= r3)                        # bge d2a
    if threshold >= r3:
        r3 = sub(m, r2, 128)                       # d2a: res = result + NN_Q7_MIN
        cmp(m, r2, 0)
        bcc(m, r2 == 0)
        if r2 == 0:
            return r3
        cmp(m, r3, 126)
        bcc(m, r3 <= 126)                          # ble cb6
        if r3 <= 126:
            return sxtb(m, r3, 0)
    else:
        r3 = sub(m, r2, 127)                       # cae: res = result + 1 + NN_Q7_MIN
        cmp(m, r3, 126)
        bcc(m, r3 > 126)                           # bgt d36
        if r3 <= 126:
            return sxtb(m, r3, 0)                  # cb6
    r3 = mov(m, NN_Q7_MAX)                         # d36
    b(m)
    return r3


# --- Cortex-M3 (plain C build): the same blocks, scheduled and allocated differently ---------

@kernel
def _m3_sum_column(m, fp, total, max_, mult, shift, diff_min):
    """One column of the sum loop (M3 0x162-0x16e, then 0x170-0x324, 0x64-0x158); `fp`
    points at the column before.  Returns (fp, sum)."""
    ldr_sp(m)                                      # 162: max
    fp += 1
    r3 = ldrsb(m, fp)                              # ldrsb.w r3, [fp, #1]!
    r3 = sub(m, r3, max_)                          # diff = input[col] - max;
    ldr_sp(m)                                      # diff_min
    cmp(m, r3, diff_min)                           # if (diff >= diff_min)
    bcc(m, r3 < diff_min)                          # blt 15a
    if r3 < diff_min:
        return fp, total
    ldr_sp(m)                                      # 170: shift
    ldr_sp(m)                                      # mult
    r3 = lsl(m, r3, shift)                         # MUL_SAT(diff * mask, mult)
    r2 = lsr(m, eor(m, mult, r3), 31)
    cmp(m, r2, 0)
    r2, r1 = _rounding(m, r2 != 0)
    r2, r1 = smlal(m, r2, r1, r3, mult)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r2, r1 = _toward_zero(m, r2, r1, False)
    r2 = lsr(m, r2, 31)                            # 19e
    r6 = orr(m, r2, r1 << 1)                       # val
    ldr_sp(m)                                      # mult
    cmp(m, mult, r3)
    bcc(m, mult == r3)
    saturated = False
    if mult == r3:
        ldr_sp(m)                                  # 34c
        cmp(m, mult, INT32_MIN)
        bcc(m, mult != INT32_MIN)
        saturated = mult == INT32_MIN
    if saturated:
        r3 = mov(m, 1)                             # 356: EXP_ON_NEG(NN_Q31_MAX)'s constants
        r4 = mov(m, 0)
        r9 = mov(m, -1)
        ldr_lit(m)
        str_sp(m)
        s20 = 1
        ldr_lit(m)
        r7 = mov(m, 0x20000)
        strd_sp(m)
        s28, s32 = 0x40000100, 0x001FFFFF
        ldr_lit(m)
        r6 = mvn(m, INT32_MIN)
        r0 = mov(m, r4)
        r5 = mov(m, r4)
        r2 = mov(m, r4)
        sl = mov(m, r4)
        lr = mov(m, r9)
        strd_sp(m)
        strd_sp(m)
        ldr_lit(m)
        r1 = 0x0FFFFFE0
        for _ in range(6):
            str_sp(m)
        s64, s68, s48, s52, s24, s36 = 0, -1, -1, 0, 0x01FFFFF8, -1
        s44, s56, s60, s40 = -1, 0, -1, 0
        b(m)                                       # b.n 290
    else:
        r3 = mov(m, 1 << 30)                       # 1ac: MUL_SAT(x, x)
        r7 = mov(m, 0)
        r0 = orr(m, r6, -0x1000000)                # val_mod_minus_quarter
        r1 = lsl(m, r0, 5)
        r1 = add(m, r1, 1 << 28)                   # x
        r3, r7 = smlal(m, r3, r7, r1, r1)
        cmp(m, r7, 0)
        r0 = sub(m, r0, r6)                        # remainder
        bcc(m, r7 >= 0)
        if r7 < 0:
            r3, r7 = _toward_zero(m, r3, r7, True)
        r3 = lsr(m, r3, 31)                        # 1d4
        r3 = orr(m, r3, r7 << 1)                   # x2
        r2, r4 = umull(m, r3, r3)                  # MUL_SAT(x2, x2)
        r7 = asr(m, r7, 31)
        r5 = mul(m, r3, r7)
        carry = carry_of_add(r2, 1 << 30)
        r2 = add(m, r2, 1 << 30)
        r4 = adc(m, r4, r5 << 1, carry)
        cmp(m, r4, 0)
        str_sp(m)
        s24 = r3
        bcc(m, r4 >= 0)
        if r4 < 0:
            r2, r4 = _toward_zero(m, r2, r4, True)
        r7 = mul(m, r1, r7)                        # 1fe: x2 * x, 64-bit
        r2 = lsr(m, r2, 31)
        r2 = orr(m, r2, r4 << 1)
        r4 = asr(m, r1, 31)
        r4 = mla(m, r3, r4, r7)
        r5 = eor(m, r1, r3)
        r3, r7 = umull(m, r1, r3)
        str_sp(m)
        s28 = r3
        r3 = mov(m, r7)
        str_sp(m)
        ldr_sp(m)
        r7 = r4
        sl = ubfx(m, r0, 28, 1)
        r3 = add(m, r3, r7)
        r7 = ubfx(m, r0, 25, 1)
        str_sp(m)
        s32 = r3
        r3 = sub(m, r7, 1)
        r7 = ubfx(m, r0, 24, 1)
        str_sp(m)
        s44 = r3
        r3 = sub(m, r7, 1)
        r7 = asr(m, r2, 2)                         # DIV_POW2(MUL_SAT(x2, x2), 2)
        str_sp(m)
        s36 = r3
        it(m, 1)                                   # 238: ite pl
        if r7 >= 0:
            r3 = mov(m, 1)
        else:
            r3 = mov(m, 2)
        str_sp(m)
        s20 = r3
        r3 = sbfx(m, r0, 25, 1)
        str_sp(m)
        s64 = r3
        r3 = add(m, sl, -1)
        r9 = ubfx(m, r0, 30, 1)
        str_sp(m)
        s68 = r3
        r3 = rsb(m, sl, 0)
        str_sp(m)
        s52 = r3
        r3 = add(m, r9, -1)
        lr = ubfx(m, r0, 29, 1)
        str_sp(m)
        s60 = r3
        r3 = rsb(m, r9, 0)
        r4 = ubfx(m, r0, 26, 1)
        str_sp(m)
        s40 = r3
        r3 = rsb(m, lr, 0)
        ip = ubfx(m, r0, 27, 1)
        str_sp(m)
        s56 = r3
        r3 = sub(m, r4, 1)
        r9 = add(m, lr, -1)
        r5 = lsr(m, r5, 31)
        r2 = and_(m, r2, 3)
        r0 = sbfx(m, r0, 24, 1)
        lr = add(m, ip, -1)
        sl = rsb(m, ip, 0)
        str_sp(m)
        s48 = r3
        r4 = rsb(m, r4, 0)
    ldr_sp(m)                                      # 290: if (remainder > threshold)
    cmp(m, s20, r2)
    it(m, s20 >= r2)
    if s20 < r2:
        r7 = add(m, r7, 1)
    cmp(m, r5, 0)                                  # MUL_SAT(x2, x)
    r2, r5 = _rounding(m, r5 != 0)
    ldr_sp(m)
    carry = carry_of_add(r2, s28)
    r2 = add(m, r2, s28)
    ldr_sp(m)
    r5 = adc(m, r5, s32, carry)
    cmp(m, r5, 0)
    bcc(m, r5 >= 0)
    if r5 < 0:
        r2, r5 = _toward_zero(m, r2, r5, True)
    r2 = lsr(m, r2, 31)                            # 2c2
    r2 = orr(m, r2, r5 << 1)
    r2 = add(m, r2, r7)
    r3 = lsr(m, r2, 31)                            # MUL_SAT(..., 715827883)
    cmp(m, r3, 0)
    r3, r5 = _rounding(m, r3 != 0)
    ldr_lit(m)
    r3, r5 = smlal(m, r3, r5, r2, 715827883)
    cmp(m, r5, 0)
    bcc(m, r5 >= 0)
    if r5 < 0:
        r3, r5 = _toward_zero(m, r3, r5, True)
    ldr_sp(m)                                      # 2f2: x2
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r5 << 1)
    r2 = add(m, s24, r3)
    r3 = asr(m, r2, 1)                             # DIV_POW2(..., 1)
    bcc(m, r3 < 0)
    if r3 >= 0:
        r2 = lsl(m, r2, 31)
        it(m, r2 >= 0)
        if r2 < 0:
            r3 = add(m, r3, 1)
    r3 = add(m, r3, r1)                            # 306: x + ...
    r2 = lsr(m, r3, 31)                            # MUL_SAT(1895147668, ...)
    cmp(m, r2, 0)
    r2, r1 = _rounding(m, r2 != 0)
    cmp(m, r6, 0)                                  # mask = MASK_IF_ZERO(val);
    bcc(m, r6 != 0)
    if r6 == 0:
        r3 = mov(m, 0x80000)                       # DIV_POW2(NN_Q31_MAX, ACCUM_BITS)
        b(m)
    else:
        ldr_lit(m)                                 # 64
        r2, r1 = smlal(m, r2, r1, r3, 1895147668)
        cmp(m, r1, 0)
        bcc(m, r1 >= 0)
        if r1 < 0:
            r2, r1 = _toward_zero(m, r2, r1, True)
        r2 = lsr(m, r2, 31)                        # 7a
        r3 = mov(m, 1 << 30)
        r2 = orr(m, r2, r1 << 1)
        r1 = mov(m, 0)
        r5 = mov(m, r3)
        ip = mov(m, r1)
        r2 = add(m, r2, 0x71000000)                # result = 1895147668 + ...
        ldr_lit(m)
        r2 = sub(m, r2, 0xA5000)
        r2 = sub(m, r2, 1900)
        r5, ip = smlal(m, r5, ip, r2, 1672461947)  # SELECT_IF_NON_ZERO(1672461947)
        ldr_sp(m)
        r5 = lsr(m, r5, 31)
        r5 = orr(m, r5, ip << 1)
        r6 = and_(m, s36, r2)
        ip = mov(m, r1)
        r2 = and_(m, r0, r5)
        r5 = mov(m, r3)
        ldr_lit(m)
        r2 = eor(m, r2, r6)
        r5, ip = smlal(m, r5, ip, r2, 1302514674)  # SELECT_IF_NON_ZERO(1302514674)
        ldr_sp(m)
        r5 = lsr(m, r5, 31)
        r6 = and_(m, s44, r2)
        ldr_sp(m)
        r5 = orr(m, r5, ip << 1)
        r2 = and_(m, s64, r5)
        r2 = eor(m, r2, r6)
        r5 = mov(m, r3)                            # SELECT_IF_NON_ZERO(790015084)
        r6 = mov(m, r1)
        ldr_lit(m)
        ldr_sp(m)
        r5, r6 = smlal(m, r5, r6, r2, 790015084)
        r5 = lsr(m, r5, 31)
        r5 = orr(m, r5, r6 << 1)
        r0 = and_(m, s48, r2)
        r4 = and_(m, r4, r5)
        r4 = eor(m, r4, r0)
        r2 = mov(m, r3)                            # SELECT_IF_NON_ZERO(290630308)
        r0 = mov(m, r1)
        ldr_lit(m)
        lr = and_(m, r4, lr)
        r2, r0 = smlal(m, r2, r0, r4, 290630308)
        r2 = lsr(m, r2, 31)
        r2 = orr(m, r2, r0 << 1)
        sl = and_(m, sl, r2)
        ldr_sp(m)
        sl = eor(m, sl, lr)
        r0 = and_(m, sl, s68)
        r4 = mov(m, r1)                            # SELECT_IF_NON_ZERO(39332535)
        r2 = mov(m, r3)
        ldr_lit(m)
        r2, r4 = smlal(m, r2, r4, sl, 39332535)
        r2 = lsr(m, r2, 31)
        r2 = orr(m, r2, r4 << 1)
        ldr_sp(m)
        ldr_lit(m)
        r4 = and_(m, s52, r2)
        r2 = mov(m, r4)
        r4 = mov(m, r1)                            # SELECT_IF_NON_ZERO(720401)
        r2 = eor(m, r2, r0)
        r0 = mov(m, r3)
        r0, r4 = smlal(m, r0, r4, r2, 720401)
        r9 = and_(m, r2, r9)
        r0 = lsr(m, r0, 31)
        ldr_sp(m)
        r0 = orr(m, r0, r4 << 1)
        r2 = and_(m, s56, r0)
        r0 = mov(m, 242)                           # SELECT_IF_NON_ZERO(242)
        r2 = eor(m, r9, r2)
        r3, r1 = smlal(m, r3, r1, r2, r0)
        r3 = lsr(m, r3, 31)
        r3 = orr(m, r3, r1 << 1)
        ldr_sp(m)
        ldr_sp(m)
        r2 = and_(m, r2, s60)
        r1 = and_(m, s40, r3)
        r2 = eor(m, r2, r1)                        # EXP_ON_NEG(...)
        r7 = lsl(m, r2, 20)                        # DIV_POW2(..., ACCUM_BITS): bit 11 rounds up
        r3 = asr(m, r2, 12)
        bcc(m, r7 < 0)
        if r7 < 0:
            r3 = add(m, r3, 1)                     # dae: result++;
            b(m)
    ldr_sp(m)                                      # 154: sum += ...
    total = add(m, total, r3)
    str_sp(m)
    return fp, total


@kernel
def _m3_output_s16(m, diff, mult, shift, scale, bits, remainder_mask, threshold):
    """One computed int16 output (M3 0x58c-0x888, 0x8e2-0x93e).  Returns the value STRH
    stores."""
    ldr_sp(m)                                      # 58c: shift
    ldr_sp(m)                                      # mult
    r3 = lsl(m, diff, shift)                       # MUL_SAT(diff * mask, mult)
    r2 = lsr(m, eor(m, mult, r3), 31)
    cmp(m, r2, 0)
    r1, r2 = _rounding(m, r2 != 0)
    r1, r2 = smlal(m, r1, r2, mult, r3)
    cmp(m, r2, 0)
    bcc(m, r2 >= 0)
    if r2 < 0:
        r1, r2 = _toward_zero(m, r1, r2, True)
    r1 = lsr(m, r1, 31)                            # 5bc
    r1 = orr(m, r1, r2 << 1)                       # val
    ldr_sp(m)
    cmp(m, mult, r3)
    bcc(m, mult == r3)
    saturated = False
    if mult == r3:
        ldr_sp(m)                                  # 8e6
        cmp(m, mult, INT32_MIN)
        bcc(m, mult != INT32_MIN)
        saturated = mult == INT32_MIN
    if saturated:
        r2 = mov(m, 0)                             # 8f0: EXP_ON_NEG(NN_Q31_MAX)'s constants
        r4 = mov(m, -1)
        ldr_lit(m)
        r1 = mov(m, 0x20000)
        str_sp(m)
        s36 = 0x01FFFFF8
        lr = mov(m, 1)
        ip = mov(m, r2)
        fp = mov(m, r4)
        r9 = mov(m, r2)
        r5 = mov(m, r2)
        for _ in range(4):
            strd_sp(m)
        s28, s32, s40, s44, s60, s64, s52, s56 = -1, -1, 0, 0, 0, 0, -1, 0
        ldr_lit(m)
        r0 = 0x0FFFFFE0
        ldr_lit(m)
        r3 = 0x40000100
        ldr_lit(m)
        r7 = 0x001FFFFF
        for _ in range(4):
            str_sp(m)
        s72, s68, s24, s48 = -1, -1, -1, 0
        b(m)                                       # b.n 6be
    else:
        r3 = mov(m, 1 << 30)                       # 5ca: MUL_SAT(x, x)
        r5 = mov(m, 0)
        r4 = orr(m, r1, -0x1000000)                # val_mod_minus_quarter
        r0 = lsl(m, r4, 5)
        r0 = add(m, r0, 1 << 28)                   # x
        r4 = sub(m, r4, r1)                        # remainder
        r3, r5 = smlal(m, r3, r5, r0, r0)
        r9 = ubfx(m, r4, 30, 1)
        r2 = add(m, r9, -1)
        lr = ubfx(m, r4, 28, 1)
        r6 = ubfx(m, r4, 24, 1)
        str_sp(m)
        s72 = r2
        r2 = add(m, lr, -1)
        ip = ubfx(m, r4, 25, 1)
        str_sp(m)
        s68 = r2
        r2 = sub(m, r6, 1)
        str_sp(m)
        s28 = r2
        cmp(m, r5, 0)
        r2 = add(m, ip, -1)
        str_sp(m)
        s32 = r2
        bcc(m, r5 >= 0)
        if r5 < 0:
            r3, r5 = _toward_zero(m, r3, r5, True)
        r3 = lsr(m, r3, 31)                        # 616
        r3 = orr(m, r3, r5 << 1)                   # x2
        r2, r7 = umull(m, r3, r3)                  # MUL_SAT(x2, x2)
        r5 = asr(m, r5, 31)
        fp = mul(m, r3, r5)
        carry = carry_of_add(r2, 1 << 30)
        r2 = add(m, r2, 1 << 30)
        r7 = adc(m, r7, fp << 1, carry)
        cmp(m, r7, 0)
        str_sp(m)
        s36 = r3
        bcc(m, r7 >= 0)
        if r7 < 0:
            r2, r7 = _toward_zero(m, r2, r7, True)
        r1 = clz(m, r1)                            # 642: mask = MASK_IF_ZERO(val)
        r5 = mul(m, r0, r5)                        # x2 * x, 64-bit
        r2 = lsr(m, r2, 31)
        r2 = orr(m, r2, r7 << 1)
        r7 = rsb(m, r9, 0)
        str_sp(m)
        s64 = r7
        r7 = rsb(m, lr, 0)
        lr = asr(m, r0, 31)
        lr = mla(m, r3, lr, r5)
        str_sp(m)
        s60 = r7
        r9 = rsb(m, ip, 0)
        ip = eor(m, r3, r0)
        r3, r7 = umull(m, r0, r3)
        r1 = lsr(m, r1, 5)
        r7 = add(m, r7, lr)
        lr = rsb(m, r1, 0)
        r1 = sub(m, r1, 1)
        str_sp(m)
        s24 = r1
        r1 = ubfx(m, r4, 27, 1)
        fp = add(m, r1, -1)
        r1 = ubfx(m, r4, 29, 1)
        r1 = sub(m, r1, 1)
        r6 = rsb(m, r6, 0)
        str_sp(m)
        s52 = r1
        r1 = asr(m, r2, 2)                         # DIV_POW2(MUL_SAT(x2, x2), 2)
        str_sp(m)
        s48 = r6
        r6 = bic(m, lr, INT32_MIN)
        it(m, 1)                                   # 696: ite pl
        if r1 >= 0:
            lr = mov(m, 1)
        else:
            lr = mov(m, 2)
        r5 = ubfx(m, r4, 26, 1)
        str_sp(m)
        s40 = r6
        r6 = sbfx(m, r4, 27, 1)
        r4 = sbfx(m, r4, 29, 1)
        str_sp(m)
        s56 = r4
        ip = lsr(m, ip, 31)
        r4 = sub(m, r5, 1)
        r2 = and_(m, r2, 3)
        str_sp(m)
        s44 = r6
        r5 = rsb(m, r5, 0)
    cmp(m, r2, lr)                                 # 6be: if (remainder > threshold)
    it(m, r2 <= lr)
    if r2 > lr:
        r1 = add(m, r1, 1)
    cmp(m, ip, 0)                                  # MUL_SAT(x2, x)
    r2, ip = _rounding(m, ip != 0)
    carry = carry_of_add(r2, r3)
    r2 = add(m, r2, r3)
    ip = adc(m, r7, ip, carry)
    cmp(m, ip, 0)
    bcc(m, ip >= 0)
    if ip < 0:
        r2, ip = _toward_zero(m, r2, ip, True)
    r2 = lsr(m, r2, 31)                            # 6f0
    r2 = orr(m, r2, ip << 1)
    r2 = add(m, r2, r1)
    r3 = lsr(m, r2, 31)                            # MUL_SAT(..., 715827883)
    cmp(m, r3, 0)
    r3, r1 = _rounding(m, r3 != 0)
    ldr_lit(m)
    r3, r1 = smlal(m, r3, r1, r2, 715827883)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r3, r1 = _toward_zero(m, r3, r1, True)
    ldr_sp(m)                                      # 720: x2
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r1 << 1)
    r2 = add(m, s36, r3)
    r3 = asr(m, r2, 1)                             # DIV_POW2(..., 1)
    bcc(m, r3 < 0)
    if r3 >= 0:
        r6 = lsl(m, r2, 31)
        it(m, r6 >= 0)
        if r6 < 0:
            r3 = add(m, r3, 1)
    r3 = add(m, r3, r0)                            # 734: x + ...
    r2 = lsr(m, r3, 31)                            # MUL_SAT(1895147668, ...)
    cmp(m, r2, 0)
    r2, r1 = _rounding(m, r2 != 0)
    ldr_lit(m)
    r2, r1 = smlal(m, r2, r1, r3, 1895147668)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r2, r1 = _toward_zero(m, r2, r1, True)
    r2 = lsr(m, r2, 31)                            # 75e
    r3 = mov(m, 1 << 30)
    r2 = orr(m, r2, r1 << 1)
    r1 = mov(m, 0)
    r0 = mov(m, r3)
    lr = mov(m, r1)
    r2 = add(m, r2, 0x71000000)                    # result = 1895147668 + ...
    ldr_lit(m)
    r2 = sub(m, r2, 0xA5000)
    r2 = sub(m, r2, 1900)
    r0, lr = smlal(m, r0, lr, r2, 1672461947)      # SELECT_IF_NON_ZERO(1672461947)
    ldr_sp(m)
    ldr_sp(m)
    r0 = lsr(m, r0, 31)
    r0 = orr(m, r0, lr << 1)
    r7 = and_(m, s28, r2)
    r6 = and_(m, s48, r0)
    r6 = eor(m, r6, r7)
    r2 = mov(m, r3)                                # SELECT_IF_NON_ZERO(1302514674)
    r7 = mov(m, r1)
    ldr_lit(m)
    ldr_sp(m)
    r2, r7 = smlal(m, r2, r7, r6, 1302514674)
    r2 = lsr(m, r2, 31)
    r2 = orr(m, r2, r7 << 1)
    r0 = and_(m, s32, r6)
    r9 = and_(m, r9, r2)
    r9 = eor(m, r0, r9)
    r2 = mov(m, r3)                                # SELECT_IF_NON_ZERO(790015084)
    r0 = mov(m, r1)
    ldr_lit(m)
    r4 = and_(m, r4, r9)
    r2, r0 = smlal(m, r2, r0, r9, 790015084)
    r2 = lsr(m, r2, 31)
    r2 = orr(m, r2, r0 << 1)
    r5 = and_(m, r5, r2)
    r0 = mov(m, r1)
    r2 = mov(m, r3)
    r5 = eor(m, r5, r4)
    ldr_lit(m)                                     # SELECT_IF_NON_ZERO(290630308)
    fp = and_(m, fp, r5)
    r2, r0 = smlal(m, r2, r0, r5, 290630308)
    r2 = lsr(m, r2, 31)
    r2 = orr(m, r2, r0 << 1)
    ldr_sp(m)
    r5 = mov(m, r1)
    r0 = and_(m, s44, r2)
    r2 = eor(m, fp, r0)
    r0 = mov(m, r3)                                # SELECT_IF_NON_ZERO(39332535)
    ldr_lit(m)
    ldr_sp(m)
    r0, r5 = smlal(m, r0, r5, r2, 39332535)
    r4 = and_(m, s68, r2)
    r0 = lsr(m, r0, 31)
    ldr_sp(m)
    r0 = orr(m, r0, r5 << 1)
    r2 = and_(m, s60, r0)
    r5 = mov(m, r1)                                # SELECT_IF_NON_ZERO(720401)
    r0 = mov(m, r3)
    ip = mov(m, 242)
    ldr_lit(m)
    r2 = eor(m, r2, r4)
    r0, r5 = smlal(m, r0, r5, r2, 720401)
    ldr_sp(m)
    r0 = lsr(m, r0, 31)
    r4 = and_(m, s52, r2)
    ldr_sp(m)
    r0 = orr(m, r0, r5 << 1)
    r2 = and_(m, s56, r0)
    r2 = eor(m, r2, r4)
    r3, r1 = smlal(m, r3, r1, r2, ip)              # SELECT_IF_NON_ZERO(242)
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r1 << 1)
    ldr_sp(m)
    ldr_sp(m)
    r2 = and_(m, r2, s72)
    r1 = and_(m, s64, r3)
    ldr_sp(m)
    r2 = eor(m, r2, r1)
    r2 = and_(m, r2, s24)                          # SELECT_USING_MASK(mask, NN_Q31_MAX, result)
    ldr_sp(m)
    ldr_sp(m)                                      # shifted_scale
    r2 = eor(m, r2, s40)
    r3 = lsr(m, eor(m, r2, scale), 31)             # MUL_SAT(shifted_scale, ...)
    cmp(m, r3, 0)
    r3, r1 = _rounding(m, r3 != 0)
    r3, r1 = smlal(m, r3, r1, r2, scale)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r3, r1 = _toward_zero(m, r3, r1, True)
    ldr_sp(m)                                      # 862: bits_over_unit
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r1 << 1)
    r2 = asr(m, r3, bits)                          # DIV_POW2(..., bits_over_unit)
    bcc(m, r2 < 0)                                 # bmi 8e2: below NN_Q15_MIN
    if r2 < 0:
        ldr_lit(m)                                 # 8e2: NN_Q15_MIN
        b(m)
        return NN_Q15_MIN
    ldr_sp(m)
    r3 = and_(m, r3, remainder_mask)
    ldr_sp(m)
    cmp(m, threshold, r3)                          # if (remainder > threshold)
    bcc(m, threshold >= r3)                        # bge 92a
    if threshold >= r3:
        r3 = sub(m, r2, 32768)                     # 92a: res = result + NN_Q15_MIN
        cmp(m, r2, 0)
        bcc(m, r2 == 0)
        if r2 == 0:
            return r3
        mov(m, 32766)
        cmp(m, r3, 32766)
        bcc(m, r3 <= 32766)                        # ble 888
        if r3 <= 32766:
            return sxth(m, r3, 0)
    else:
        r3 = sub(m, r2, 32640)                     # 87a: res = result + 1 + NN_Q15_MIN
        mov(m, 32766)
        r3 = sub(m, r3, 127)
        cmp(m, r3, 32766)
        bcc(m, r3 > 32766)                         # bgt 93a
        if r3 <= 32766:
            return sxth(m, r3, 0)                  # 888
    r3 = mov(m, NN_Q15_MAX)                        # 93a
    b(m)
    return r3


@kernel
def _m3_output_s8(m, diff, mult, shift, scale, bits, remainder_mask, threshold):
    """One computed int8 output (M3 0x99c-0xc92, 0xcb8-0xd12).  Returns the value STRB
    stores."""
    ldr_sp(m)                                      # 99c: shift
    ldr_sp(m)                                      # mult
    r3 = lsl(m, diff, shift)                       # MUL_SAT(diff * mask, mult)
    r2 = lsr(m, eor(m, mult, r3), 31)
    cmp(m, r2, 0)
    r2, r1 = _rounding(m, r2 != 0)
    r2, r1 = smlal(m, r2, r1, mult, r3)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r2, r1 = _toward_zero(m, r2, r1, True)
    r2 = lsr(m, r2, 31)                            # 9cc
    r2 = orr(m, r2, r1 << 1)                       # val
    ldr_sp(m)
    cmp(m, mult, r3)
    bcc(m, mult == r3)
    saturated = False
    if mult == r3:
        ldr_sp(m)                                  # cbe
        cmp(m, mult, INT32_MIN)
        bcc(m, mult != INT32_MIN)
        saturated = mult == INT32_MIN
    if saturated:
        r2 = mov(m, 0)                             # cc8: EXP_ON_NEG(NN_Q31_MAX)'s constants
        sl = mov(m, -1)
        ldr_lit(m)
        r0 = mov(m, 0x20000)
        str_sp(m)
        s40 = 0x01FFFFF8
        r9 = mov(m, 1)
        r1 = mov(m, r2)
        ip = mov(m, r2)
        r6 = mov(m, r2)
        r7 = mov(m, sl)
        for _ in range(4):
            strd_sp(m)
        s56, s60, s48, s52, s28, s32, s20, s24 = 0, 0, -1, -1, -1, 0, -1, -1
        ldr_lit(m)
        r4 = 0x0FFFFFE0
        ldr_lit(m)
        r3 = 0x40000100
        ldr_lit(m)
        r5 = 0x001FFFFF
        for _ in range(4):
            str_sp(m)
        s64, s68, s44, s36 = 0, -1, 0, 0
        b(m)                                       # b.n ad0
    else:
        r3 = mov(m, 1 << 30)                       # 9da: MUL_SAT(x, x)
        r5 = mov(m, 0)
        r0 = orr(m, r2, -0x1000000)                # val_mod_minus_quarter
        r4 = lsl(m, r0, 5)
        r0 = sub(m, r0, r2)                        # remainder
        r1 = ubfx(m, r0, 25, 1)
        r4 = add(m, r4, 1 << 28)                   # x
        r7 = sub(m, r1, 1)
        r3, r5 = smlal(m, r3, r5, r4, r4)
        r1 = rsb(m, r1, 0)
        r6 = ubfx(m, r0, 26, 1)
        str_sp(m)
        s44 = r1
        r1 = sbfx(m, r0, 29, 1)
        r6 = sub(m, r6, 1)
        str_sp(m)
        s64 = r1
        r1 = sbfx(m, r0, 28, 1)
        str_sp(m)
        s52 = r6
        str_sp(m)
        s60 = r1
        r6 = ubfx(m, r0, 24, 1)
        r1 = sbfx(m, r0, 26, 1)
        str_sp(m)
        s56 = r1
        cmp(m, r5, 0)
        r1 = add(m, r6, -1)
        str_sp(m)
        s68 = r7
        sl = ubfx(m, r0, 29, 1)
        r9 = ubfx(m, r0, 28, 1)
        r7 = ubfx(m, r0, 27, 1)
        str_sp(m)
        s48 = r1
        bcc(m, r5 >= 0)
        if r5 < 0:
            r3, r5 = _toward_zero(m, r3, r5, True)
        r3 = lsr(m, r3, 31)                        # a3c
        r3 = orr(m, r3, r5 << 1)                   # x2
        r1 = asr(m, r5, 31)                        # MUL_SAT(x2, x2)
        r5 = mul(m, r3, r1)
        str_sp(m)
        s20 = r1
        r1, ip = umull(m, r3, r3)
        carry = carry_of_add(r1, 1 << 30)
        r1 = add(m, r1, 1 << 30)
        ip = adc(m, ip, r5 << 1, carry)
        cmp(m, ip, 0)
        str_sp(m)
        s40 = r3
        bcc(m, ip >= 0)
        if ip < 0:
            r1, ip = _toward_zero(m, r1, ip, False)
        r2 = clz(m, r2)                            # a68: mask = MASK_IF_ZERO(val)
        ldr_sp(m)
        r1 = lsr(m, r1, 31)
        r5 = mul(m, r4, s20)                       # x2 * x, 64-bit
        r1 = orr(m, r1, ip << 1)
        ip = add(m, sl, -1)
        sl = add(m, r9, -1)
        r9 = asr(m, r4, 31)
        r9 = mla(m, r3, r9, r5)
        str_sp(m)
        s28 = ip
        ip = eor(m, r3, r4)
        r3, r5 = umull(m, r4, r3)
        r2 = lsr(m, r2, 5)
        r5 = add(m, r5, r9)
        r9 = rsb(m, r2, 0)
        r2 = sub(m, r2, 1)
        str_sp(m)
        s24 = r2
        r2 = ubfx(m, r0, 30, 1)
        r0 = sbfx(m, r0, 30, 1)
        r9 = bic(m, r9, INT32_MIN)
        str_sp(m)
        s32 = r0
        r0 = asr(m, r1, 2)                         # DIV_POW2(MUL_SAT(x2, x2), 2)
        str_sp(m)
        s36 = r9
        it(m, 1)                                   # ab4: ite pl
        if r0 >= 0:
            r9 = mov(m, 1)
        else:
            r9 = mov(m, 2)
        r2 = sub(m, r2, 1)
        str_sp(m)
        s20 = r2
        r6 = rsb(m, r6, 0)
        r2 = rsb(m, r7, 0)
        ip = lsr(m, ip, 31)
        r1 = and_(m, r1, 3)
        r7 = sub(m, r7, 1)
    cmp(m, r9, r1)                                 # ad0: if (remainder > threshold)
    it(m, r9 >= r1)
    if r9 < r1:
        r0 = add(m, r0, 1)
    cmp(m, ip, 0)                                  # MUL_SAT(x2, x)
    r1, ip = _rounding(m, ip != 0)
    carry = carry_of_add(r1, r3)
    r1 = add(m, r1, r3)
    ip = adc(m, r5, ip, carry)
    cmp(m, ip, 0)
    bcc(m, ip >= 0)
    if ip < 0:
        r1, ip = _toward_zero(m, r1, ip, True)
    r1 = lsr(m, r1, 31)                            # b02
    r1 = orr(m, r1, ip << 1)
    r1 = add(m, r1, r0)
    r3 = lsr(m, r1, 31)                            # MUL_SAT(..., 715827883)
    cmp(m, r3, 0)
    r3, r0 = _rounding(m, r3 != 0)
    ldr_lit(m)
    r3, r0 = smlal(m, r3, r0, r1, 715827883)
    cmp(m, r0, 0)
    bcc(m, r0 >= 0)
    if r0 < 0:
        r3, r0 = _toward_zero(m, r3, r0, True)
    ldr_sp(m)                                      # b32: x2
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r0 << 1)
    r1 = add(m, s40, r3)
    r3 = asr(m, r1, 1)                             # DIV_POW2(..., 1)
    bcc(m, r3 < 0)
    if r3 >= 0:
        r1 = lsl(m, r1, 31)
        it(m, r1 >= 0)
        if r1 < 0:
            r3 = add(m, r3, 1)
    r3 = add(m, r3, r4)                            # b46: x + ...
    r1 = lsr(m, r3, 31)                            # MUL_SAT(1895147668, ...)
    cmp(m, r1, 0)
    r1, r0 = _rounding(m, r1 != 0)
    ldr_lit(m)
    r1, r0 = smlal(m, r1, r0, r3, 1895147668)
    cmp(m, r0, 0)
    bcc(m, r0 >= 0)
    if r0 < 0:
        r1, r0 = _toward_zero(m, r1, r0, True)
    r1 = lsr(m, r1, 31)                            # b70
    r3 = mov(m, 1 << 30)
    r1 = orr(m, r1, r0 << 1)
    r0 = mov(m, 0)
    r4 = mov(m, r3)
    r9 = mov(m, r0)
    r1 = add(m, r1, 0x71000000)                    # result = 1895147668 + ...
    ldr_lit(m)
    r1 = sub(m, r1, 0xA5000)
    r1 = sub(m, r1, 1900)
    r4, r9 = smlal(m, r4, r9, r1, 1672461947)      # SELECT_IF_NON_ZERO(1672461947)
    ldr_sp(m)
    r4 = lsr(m, r4, 31)
    r4 = orr(m, r4, r9 << 1)
    r5 = and_(m, s48, r1)
    r6 = and_(m, r6, r4)
    r6 = eor(m, r6, r5)
    r1 = mov(m, r3)                                # SELECT_IF_NON_ZERO(1302514674)
    r5 = mov(m, r0)
    ldr_lit(m)
    ldr_sp(m)
    r1, r5 = smlal(m, r1, r5, r6, 1302514674)
    r1 = lsr(m, r1, 31)
    r1 = orr(m, r1, r5 << 1)
    ldr_sp(m)
    r4 = and_(m, s68, r6)
    r5 = and_(m, s44, r1)
    r1 = mov(m, r5)
    r6 = mov(m, r0)
    r1 = eor(m, r1, r4)
    r4 = mov(m, r3)                                # SELECT_IF_NON_ZERO(790015084)
    ldr_lit(m)
    ldr_sp(m)
    r4, r6 = smlal(m, r4, r6, r1, 790015084)
    r5 = and_(m, s52, r1)
    r4 = lsr(m, r4, 31)
    ldr_sp(m)
    r4 = orr(m, r4, r6 << 1)
    r1 = and_(m, s56, r4)
    r1 = eor(m, r1, r5)
    r4 = mov(m, r3)                                # SELECT_IF_NON_ZERO(290630308)
    r5 = mov(m, r0)
    ldr_lit(m)
    r7 = and_(m, r7, r1)
    r4, r5 = smlal(m, r4, r5, r1, 290630308)
    r4 = lsr(m, r4, 31)
    r4 = orr(m, r4, r5 << 1)
    r1 = mov(m, r3)
    r2 = and_(m, r2, r4)
    r4 = mov(m, r0)
    ldr_lit(m)
    r2 = eor(m, r2, r7)
    r1, r4 = smlal(m, r1, r4, r2, 39332535)        # SELECT_IF_NON_ZERO(39332535)
    sl = and_(m, r2, sl)
    r1 = lsr(m, r1, 31)
    ldr_sp(m)
    r1 = orr(m, r1, r4 << 1)
    r5 = mov(m, r0)
    r2 = and_(m, s60, r1)
    r1 = mov(m, r3)
    ldr_lit(m)
    r2 = eor(m, sl, r2)
    r1, r5 = smlal(m, r1, r5, r2, 720401)          # SELECT_IF_NON_ZERO(720401)
    ldr_sp(m)
    r1 = lsr(m, r1, 31)
    r4 = and_(m, s28, r2)
    ldr_sp(m)
    r1 = orr(m, r1, r5 << 1)
    r2 = and_(m, s64, r1)
    r1 = mov(m, 242)                               # SELECT_IF_NON_ZERO(242)
    r2 = eor(m, r2, r4)
    r3, r0 = smlal(m, r3, r0, r2, r1)
    ldr_sp(m)
    r3 = lsr(m, r3, 31)
    r2 = and_(m, r2, s20)
    ldr_sp(m)
    r3 = orr(m, r3, r0 << 1)
    r1 = and_(m, s32, r3)
    ldr_sp(m)
    r2 = eor(m, r2, r1)
    r2 = and_(m, r2, s24)                          # SELECT_USING_MASK(mask, NN_Q31_MAX, result)
    ldr_sp(m)
    ldr_sp(m)                                      # shifted_scale
    r2 = eor(m, r2, s36)
    r3 = lsr(m, eor(m, r2, scale), 31)             # MUL_SAT(shifted_scale, ...)
    cmp(m, r3, 0)
    r3, r1 = _rounding(m, r3 != 0)
    r3, r1 = smlal(m, r3, r1, r2, scale)
    cmp(m, r1, 0)
    bcc(m, r1 >= 0)
    if r1 < 0:
        r3, r1 = _toward_zero(m, r3, r1, True)
    ldr_sp(m)                                      # c72: bits_over_unit
    r3 = lsr(m, r3, 31)
    r3 = orr(m, r3, r1 << 1)
    r2 = asr(m, r3, bits)                          # DIV_POW2(..., bits_over_unit)
    bcc(m, r2 < 0)                                 # bmi cb8: below NN_Q7_MIN
    if r2 < 0:
        r3 = mvn(m, 127)                           # cb8
        b(m)
        return r3
    ldr_sp(m)
    r3 = and_(m, r3, remainder_mask)
    ldr_sp(m)
    cmp(m, threshold, r3)                          # if (remainder > threshold)
    bcc(m, threshold >= r3)                        # bge d04
    if threshold >= r3:
        r3 = sub(m, r2, 128)                       # d04: res = result + NN_Q7_MIN
        cmp(m, r2, 0)
        bcc(m, r2 == 0)
        if r2 == 0:
            return r3
        cmp(m, r3, 126)
        bcc(m, r3 <= 126)                          # ble c92
        if r3 <= 126:
            return sxtb(m, r3, 0)
    else:
        r3 = sub(m, r2, 127)                       # c8a: res = result + 1 + NN_Q7_MIN
        cmp(m, r3, 126)
        bcc(m, r3 > 126)                           # bgt d10
        if r3 <= 126:
            return sxtb(m, r3, 0)                  # c92
    r3 = mov(m, NN_Q7_MAX)                         # d10
    b(m)
    return r3


@kernel(inline=True)
def _softmax(m, input, num_rows, row_size, mult, shift, diff_min, int16_output, output):
    """The function body: frame, row loop (0x38-0x8f8), epilogue."""
    push(m, 9)                                     # 0: stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                   # sub sp, #124
    if m.dsp:
        str_sp(m)                                  # mult
        ldrb_sp(m)                                 # int16_output (stacked)
        str_sp(m)
    else:
        ldrb_sp(m)
        str_sp(m)
    sub(m, num_rows, 0)                            # subs r3, r1, #0
    if not m.dsp:
        str_sp(m)
    str_sp(m)
    str_sp(m)
    bcc(m, num_rows <= 0)                          # for (row_idx = 0; row_idx < num_rows; ++row_idx)
    if num_rows > 0:                               # 18: the rows' invariants
        if m.dsp:
            sub(m, row_size, 1)                    # the row's last column
            add(m, 0, 0)
            str_sp(m)
            sub(m, input, 1)
            ldr_sp(m)                              # output (stacked)
            str_sp(m)
            lsl(m, row_size, 1)                    # the int16 row's bytes
            str_sp(m)
            ldr_lit(m)                             # r8 = 1 - (1 << 30)
            str_sp(m)
            mov(m, 0)                              # row_idx = 0
            mov(m, 0)
            str_sp(m)
        else:
            mov(m, 0)                              # row_idx = 0
            ldr_sp(m)                              # output (stacked)
            str_sp(m)
            sub(m, row_size, 1)                    # the row's last column
            add(m, 0, 0)
            strd_sp(m)
            str_sp(m)
            ldr_lit(m)                             # r8 = 1 - (1 << 30)
            lsl(m, row_size, 1)                    # the int16 row's bytes
            add(m, input, -1)
            str_sp(m)
    for row_idx in range(num_rows):
        ldr_sp(m)                                  # 38: for (col = 1; col < row_size; ++col)
        if m.dsp:
            ldr_sp(m)
            cmp(m, row_size, 1)
            max_ = ldrsb(m, input)                 # int8_t max = *input;
        else:
            max_ = ldrsb(m, input)
            cmp(m, row_size, 1)
        add(m, 0, 0)
        bcc(m, row_size <= 1)                      # ble df8
        if row_size > 1:
            ldr_sp(m)                              # 4a
            for col in range(1, row_size):
                max_ = max_lt(m, max_, ldrsb(m, input + col))   # max = MAX(max, input[col]);
                cmp(m, col, row_size - 1)
                bcc(m, col != row_size - 1)
        else:
            bcc(m, row_size == 1)                  # df8: beq 5a
        if row_size > 0:
            if m.dsp:
                ldr_sp(m)                          # 5a
                str_sp(m)
                total = mov(m, 0)                  # int32_t sum = 0;
                strd_sp(m)
                mov(m, 0)
            else:
                total = mov(m, 0)
                mov(m, 0)
                strd_sp(m)
                str_sp(m)
            b(m)                                   # b.n 16a
            ptr = input - 1
            while True:                            # for (col = 0; col < row_size; ++col)
                if m.dsp:
                    ptr, total = _m4_sum_column(m, ptr, total, max_, mult, shift, diff_min)
                else:
                    ptr, total = _m3_sum_column(m, ptr, total, max_, mult, shift, diff_min)
                ldr_sp(m)                          # 162
                cmp(m, ptr, input + row_size - 1)
                bcc(m, ptr == input + row_size - 1)
                if ptr == input + row_size - 1:
                    break
            headroom, scale = _reciprocal(m, total, True)
        else:
            headroom, scale = _reciprocal(m, 0, False)
        ldr_sp(m)                                  # 554: if (int16_output)
        cmp(m, int16_output, 0)
        bcc(m, not int16_output)
        if int16_output:
            out = output + 2 * row_idx * row_size  # int16_t *output_s16
            ldr_sp(m)                              # 55c
            bits = rsb(m, headroom, ACCUM_BITS + 15)    # bits_over_unit = ACCUM_BITS - headroom + 15;
            cmp(m, row_size, 0)
            str_sp(m)
            bcc(m, row_size <= 0)
            if row_size > 0:
                # DIV_POW2's remainder_mask = (1 << exponent) - 1 and threshold, hoisted
                remainder_mask = sub(m, lsl(m, mov(m, 1), bits), 1)
                if m.dsp:
                    str_sp(m)
                    threshold = asr(m, remainder_mask, 1)
                    str_sp(m)
                    ldr_sp(m)
                    str_sp(m)
                    ldr_sp(m)
                else:
                    ldr_sp(m)
                    str_sp(m)
                    threshold = asr(m, remainder_mask, 1)
                    mov(m, 0)
                    str_sp(m)
                str_sp(m)
                str_sp(m)
                str_sp(m)
                b(m)                               # b.n 8b8
                for col in range(row_size):
                    ldr_sp(m)                      # 8b8: diff = input[col] - max;
                    v = ldrsb(m, input + col)
                    if m.dsp:
                        str_sp(m)
                        ldr_sp(m)
                    diff = sub(m, v, max_)
                    ldr_sp(m)
                    cmp(m, diff_min, diff)         # if (diff >= diff_min)
                    bcc(m, diff_min <= diff)
                    if diff_min <= diff:
                        if m.dsp:
                            res = _m4_output_s16(m, diff, mult, shift, scale, bits,
                                                 remainder_mask, threshold)
                        else:
                            res = _m3_output_s16(m, diff, mult, shift, scale, bits,
                                                 remainder_mask, threshold)
                    else:
                        res = mov(m, 32768)        # output_s16[col] = NN_Q15_MIN;
                        b(m)
                    ldr_sp(m)                      # 8a4
                    strh(m, out + 2 * col, res)
                    ldr_sp(m)
                    if m.dsp:
                        ldr_sp(m)
                    add(m, 0, 2)
                    str_sp(m)
                    ldr_sp(m)
                    cmp(m, col, row_size - 1)
                    bcc(m, col == row_size - 1)
                ldr_sp(m)                          # dce
                b(m)
        else:
            out = output + row_idx * row_size      # int8_t *output_s8
            ldr_sp(m)                              # 964
            bits = rsb(m, headroom, ACCUM_BITS + 23)    # bits_over_unit = ACCUM_BITS - headroom + 23;
            cmp(m, row_size, 0)
            str_sp(m)
            bcc(m, row_size <= 0)
            if row_size > 0:
                remainder_mask = sub(m, lsl(m, mov(m, 1), bits), 1)
                str_sp(m)
                threshold = asr(m, remainder_mask, 1)
                if not m.dsp:
                    mov(m, 0)
                ldr_sp(m)
                str_sp(m)
                str_sp(m)
                str_sp(m)
                b(m)                               # b.n cc8
                for col in range(row_size):
                    ldr_sp(m)                      # cc8: diff = input[col] - max;
                    v = ldrsb(m, input + col)
                    diff = sub(m, v, max_)
                    ldr_sp(m)
                    cmp(m, diff_min, diff)         # if (diff >= diff_min)
                    bcc(m, diff_min <= diff)
                    if diff_min <= diff:
                        if m.dsp:
                            res = _m4_output_s8(m, diff, mult, shift, scale, bits,
                                                remainder_mask, threshold)
                        else:
                            res = _m3_output_s8(m, diff, mult, shift, scale, bits,
                                                remainder_mask, threshold)
                    else:
                        res = mov(m, 128)          # output_s8[col] = NN_Q7_MIN;
                        b(m)
                    strb(m, out + col, res)        # cb8
                    ldr_sp(m)
                    if m.dsp:
                        cmp(m, col, row_size - 1)
                        add(m, 0, 1)
                    else:
                        add(m, 0, 1)
                        cmp(m, col, row_size - 1)
                    bcc(m, col == row_size - 1)
                ldr_sp(m)                          # 8d2
        input += row_size                          # 8d6: input += row_size;
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        if m.dsp:
            ldr_sp(m)
            add(m, 0, 0)
            str_sp(m)
            ldr_sp(m)
        else:
            add(m, 0, 0)
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
        add(m, 0, 0)
        str_sp(m)
        ldr_sp(m)
        add(m, 0, 0)
        add(m, 0, 0)
        ldr_sp(m)
        if m.dsp:
            str_sp(m)
            add(m, row_idx, 1)
            cmp(m, num_rows, row_idx + 1)
            str_sp(m)
        else:
            add(m, row_idx, 1)
            cmp(m, num_rows, row_idx + 1)
            str_sp(m)
            str_sp(m)
        bcc(m, row_idx + 1 != num_rows)
    add(m, 0, 0)                                   # 8fc: add sp, #124
    pop_pc(m, 9)


@kernel
def arm_nn_softmax_common_s8(m, input, num_rows, row_size, mult, shift, diff_min, int16_output,
                             output):
    _softmax(m, input, num_rows, row_size, mult, shift, diff_min, int16_output, output)
