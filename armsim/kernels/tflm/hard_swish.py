"""TFLite Micro's int8 HARD_SWISH (hard_swish.cc -> reference_ops::HardSwish<int8_t>,
kernels/internal/reference/hard_swish.h), counted.

Per element, in int16 fixed point:

    hires = (int16)((in - input_zero_point) * 128)
    preshift = SRDHM16(hires, output_multiplier_fixedpoint_int16)
    reluish = hires; if (reluish_exponent > 0) reluish = SaturatingLeftShift(reluish, e - 1)
    reluish = SRDHM16(reluish, reluish_multiplier_fixedpoint_int16)
    if (e > 0) reluish = SaturatingLeftShift(reluish, 1)
    if (e < 0) reluish = RoundingDivideByPOT(reluish, -e)
    reluish = (reluish + 32768) >> 1
    out = RoundingDivideByPOT(SaturatingDoublingHighMul(reluish, preshift), -output_exponent)
          + output_zero_point, clamped to int8

(SRDHM16: gemmlowp's int16 SaturatingRoundingDoublingHighMul, nudge +-2^14 and a division by
2^15 toward zero.)  The instruction sequence follows, block by block, the disassembly of
the template compiled locally with arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -DNDEBUG (the
gemmlowp helpers written out from fixedpoint.h): the branches for equal operands (the
overflow test), negative products, and the sign of the reluish exponent are those of the
listing; MatchingFlatSize as in the other activations (armsim.kernels.tflm.activations).
Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, and_, asr, b, bcc, bx, cmn, cmp, it, ldr_lit, ldr_sp,
                            ldrsb, lsl, mov, mul, mvn, pop_pc, push, rsb, sbc, sbfx, smull,
                            strb, sub, sxth, ubfx)
from armsim.kernels.tflm.activations import flat_size

INT16_MIN, INT16_MAX = -32768, 32767


@kernel(inline=True)
def _s16(x):
    """static_cast<int16_t>: two's complement truncation."""
    return ((x + 32768) & 0xFFFF) - 32768


@kernel(inline=True)
def _srdhm_product(m, x, y):
    """MUL, then the nudge and division toward zero of SRDHM16 as compiled (non-negative:
    ADD #16384, SBFX; negative: SUB, SUBS, CMP, IT, ADDLT, SBFX/ASRS)."""
    ab = mul(m, x, y)
    cmp(m, ab, 0)
    bcc(m, ab < 0)
    if ab >= 0:
        t = add(m, ab, 16384)
        r = sbfx(m, t, 15, 16)
    else:
        t = sub(m, ab, 16320)
        t = sub(m, t, 63)                     # ab + (1 - 2^14)
        cmp(m, t, 0)
        it(m, t >= 0)
        if t < 0:
            t = add(m, t, 32767)              # toward zero
        r = sbfx(m, t, 15, 16)
        b(m)
    return _s16(r)


@kernel(inline=True)
def _saturating_shift(m, value, amount):
    """SaturatingLeftShift as compiled: a 64-bit product (SMULL, or ADDS/ADCS for << 1),
    clamped to int16 with CMP/SBCS and predicated moves."""
    v = value * (1 << amount)
    over = v >= 32768
    cmp(m, v, 32768)
    sbc(m, 0, 0, 1)
    it(m, 0 if over else 2)                   # ITT GE
    if over:
        v = mov(m, INT16_MAX)
        mov(m, 0)
    under = v < -32768
    cmn(m, v, 32768)
    sbc(m, 0, 0, 1)
    return v if not under else INT16_MIN, under


@kernel
def hard_swish_s8(m, inp, out, rank, size, input_zp, output_zp, out_mult, out_exp, rel_mult,
                  rel_exp):
    flat_size(m, rank, 0)                     # MatchingFlatSize(input_shape, output_shape)
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size <= 0:
        bx(m)
        return 0
    add(m, inp, -1)
    push(m, 9)
    add(m, inp, size)
    ldr_lit(m)                                # 0xffff8000
    add(m, out, -1)
    mov(m, 1)
    mov(m, INT16_MAX)
    mvn(m, 127)
    b(m)
    for i in range(size):
        x = ldrsb(m, inp + i)                 # ldrsb.w r3, [ip, #1]!
        ldr_sp(m)                             # ldrh input_zero_point
        ldr_sp(m)                             # ldrsh output_multiplier_fixedpoint_int16
        x = sub(m, x, input_zp)
        x = lsl(m, x, 7)
        hires = sxth(m, _s16(x), 0)           # input_value_on_hires_input_scale
        cmp(m, out_mult, hires)
        bcc(m, out_mult == hires)
        overflow = out_mult == hires and hires == INT16_MIN
        if out_mult == hires:
            cmn(m, hires, 32768)
            bcc(m, hires != INT16_MIN)
        if overflow:                          # 196: SRDHM16 overflow
            ldr_sp(m)                         # reluish exponent
            cmp(m, rel_exp, 0)
            bcc(m, rel_exp <= 0)
            preshift = INT16_MAX
            if rel_exp > 0:
                mov(m, INT16_MAX)
                b(m)
        else:
            preshift = _srdhm_product(m, hires, out_mult)
            ldr_sp(m)                         # 120: ldr reluish exponent
            cmp(m, rel_exp, 0)
            bcc(m, rel_exp > 0)
        reluish = hires
        if rel_exp > 0:                       # 24: SaturatingLeftShift(reluish, e - 1)
            sh = add(m, rel_exp, -1)
            lsl(m, 1, sh)
            smull(m, hires, 1 << sh)
            reluish, under = _saturating_shift(m, hires, rel_exp - 1)
            it(m, 0 if under else 1)
            if under:
                mov(m, INT16_MIN)             # movlt r9, r7 (0xffff8000)
        ldr_sp(m)                             # ldrsh reluish_multiplier_fixedpoint_int16
        if rel_exp > 0:
            reluish = sxth(m, _s16(reluish), 0)
        cmp(m, rel_mult, reluish)
        bcc(m, rel_mult != reluish if rel_exp <= 0 else rel_mult == reluish)
        if rel_mult == reluish:
            cmn(m, reluish, 32768)
            bcc(m, reluish != INT16_MIN)
        if rel_mult == reluish and reluish == INT16_MIN:
            r = mov(m, INT16_MAX)             # SRDHM16 overflow
            if rel_exp > 0:
                b(m)
        else:
            r = _srdhm_product(m, reluish, rel_mult)
            cmp(m, rel_exp, 0)                # 6c: reluish exponent > 0 ?
            bcc(m, rel_exp <= 0)
        if rel_exp > 0:                       # 72: SaturatingLeftShift(reluish, 1)
            add(m, r, r)
            asr(m, r, 31)
            adc(m, r, r, 0)
            r, under = _saturating_shift(m, r, 1)
            bcc(m, not under)
            if under:
                mov(m, INT16_MIN)
            r = sxth(m, _s16(r), 0)
        else:
            cmp(m, rel_exp, 0)                # 13e
            bcc(m, rel_exp == 0)
            if rel_exp < 0:                   # RoundingDivideByPOT(reluish, -e)
                e = rsb(m, rel_exp, 0)
                mask = add(m, lsl(m, 1, e), -1)
                q = asr(m, r, e)
                sign = ubfx(m, r, 15, 1)
                rem = and_(m, mask, r)
                threshold = sbfx(m, mask, 1, 15)
                threshold = add(m, threshold, sign)
                rem = sxth(m, _s16(rem), 0)
                cmp(m, threshold, rem)
                it(m, rem <= threshold)
                if rem > threshold:
                    q = add(m, q, 1)
                b(m)
                r = sxth(m, _s16(q), 0)
        reluish = asr(m, add(m, r, 32768), 1)  # 9c: (reluish + (1 << 15)) >> 1
        ab = mul(m, preshift, reluish)        # SaturatingDoublingHighMul (no overflow: >= 0)
        ldr_sp(m)                             # output_multiplier_exponent
        ldr_sp(m)                             # ldrh output_zero_point
        e = rsb(m, out_exp, 0)
        cmp(m, ab, 0)
        mask = lsl(m, 1, e)
        it(m, ab >= 0)
        if ab < 0:
            ab = add(m, ab, 32767)
        mask = add(m, mask, -1)
        x = asr(m, ab, 15)                    # (int16)(ab / 2^15)
        mask = sxth(m, _s16(mask), 0)
        q = asr(m, x, e)
        rem = and_(m, mask, x)
        sign = ubfx(m, ab, 30, 1)
        threshold = add(m, sign, mask >> 1)
        rem = sxth(m, _s16(rem), 0)
        o = add(m, q, output_zp)
        cmp(m, rem, threshold)
        it(m, rem <= threshold)
        if rem > threshold:
            o = add(m, o, 1)
        o = sxth(m, _s16(o), 0)
        cmp(m, o, 127)
        it(m, o < 127)
        if o >= 127:
            o = mov(m, 127)
        cmp(m, o, -128)
        it(m, o >= -128)
        if o < -128:
            o = mov(m, -128)
        cmp(m, i + 1, size)
        strb(m, out + i, o)
        bcc(m, i + 1 == size)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    run(hard_swish_s8, m, addr["input"], addr["output"], case["rank"], case["size"],
        case["input_zp"],
        case["output_zp"], case["output_multiplier"], case["output_exponent"],
        case["reluish_multiplier"], case["reluish_exponent"], tracer=tracer)
    return ["reference_ops::HardSwish<int8_t>"]
