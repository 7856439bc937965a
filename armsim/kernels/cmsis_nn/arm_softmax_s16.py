"""arm_softmax_s16 (Source/SoftmaxFunctions/arm_softmax_s16.c), non-MVE code.

    arm_cmsis_nn_status arm_softmax_s16(const int16_t *input, const int32_t num_rows,
        const int32_t row_size, const int32_t mult, const int32_t shift,
        const cmsis_nn_softmax_lut_s16 *softmax_params, int16_t *output)

Per row: the maximum; every column's exp from the 513-entry exp LUT (index = 256 +
(x >> 7), linear interpolation over the 7 low bits) of
x = clamp(arm_nn_requantize(input - max, mult, shift) + 32767, int16), cached in `output`
and summed; the reciprocal of the sum from the 1/(1 + x) LUT; every column again:
output = ((cached * one_by_one) >> (30 - headroom) + 1) >> 1.  No ARM_MATH_DSP code in the
C: gcc uses SMULBB / SMLABB for the int16 products on the DSP build, SXTH + MUL on the M3.

Calibration (../shared/reference/softmax_s16_4x32, gcc -O2; 6354 dsp_O2 / 6344 scalar_O2
instructions, all inside arm_softmax_s16; armsim 6347 / 6355): the loops follow the C, the
requantization's shift-only part is hoisted out of the loops as gcc does.  FITTED to that
case's totals and histograms, each marked "fitted": the per-column stack reloads of the exp
pass (3 on the DSP build, 1 on the M3: ldr 433 vs 177 measured), the per-row spill traffic,
the rounding's sign test folded into the threshold (cmp / it counts) and the upper clamp
compiled as a branch (the it / bcc split and the failed IT slots: 297 measured).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, bcc, cbz, clz, cmp, fitted_ldr_sp, fitted_str_sp, it,
                            ldrh, ldrsh, lsl, mov, mul, pop_pc, push, rsb, sbfx, smlabb, smulbb,
                            strh, sub, sxth, uxth)
from armsim.kernels.minmax import max_lt

from .arm_nn_requantize import arm_nn_doubling_high_mult_no_sat
from .arm_nn_requantize_invariant import requantize_setup

NN_Q15_MAX = 32767
NN_Q15_MIN = -32768
ARM_CMSIS_NN_SUCCESS = 0
ARM_CMSIS_NN_ARG_ERROR = -1


@kernel(inline=True)
def _lut_lookup(m, lut, value):
    """index = 256 + (value >> 7), offset = value & 0x7f; base + ((slope * offset + 64) >> 7)
    (the int16 casts: UXTH of the index, SBFX of the delta; SMLABB reads the int16 slope on
    the DSP build, the M3 sign-extends it first)."""
    index = uxth(m, add(m, 256, value >> 7), 0)         # (256 + (value >> 7)): ADD ..., ASR #7
    offset = and_(m, value, 0x7F)                       # value & 0x7f
    base = ldrh(m, lut + 2 * index)                     # lut[index]
    nxt = ldrh(m, lut + 2 * index + 2)                  # lut[index + 1]
    slope = sub(m, nxt, base)                           # lut[index + 1] - lut[index]
    if m.dsp:
        t = smlabb(m, slope, offset, 64)                # slope * offset + 64
    else:
        t = add(m, mul(m, sxth(m, slope, 0), offset), 64)
    delta = sbfx(m, t, 7, 16)                           # (int16_t)((...) >> 7)
    return add(m, base, delta)                          # base + delta


@kernel(inline=True)
def _requantize(m, val, multiplier, left_shift, right_shift, remainder_mask, threshold):
    """arm_nn_requantize in the exp loop, the shift-only part hoisted (`requantize_setup`).
    Fitted: the rounding's `result < 0` test is the sign bit folded into the threshold
    (ADD ..., LSR #31; one CMP / IT fewer per column than `round_half_away`), as the
    measured cmp / it counts of softmax_s16_4x32 show."""
    dividend = arm_nn_doubling_high_mult_no_sat(m, lsl(m, val, left_shift), multiplier)
    remainder = and_(m, remainder_mask, dividend)       # remainder_mask & dividend
    result = asr(m, dividend, right_shift)              # dividend >> exponent
    threshold = add(m, threshold, (result >> 31) & 1)   # threshold + (result < 0)   (fitted)
    cmp(m, remainder, threshold)                        # if (remainder > threshold)
    round_up = remainder > threshold
    it(m, not round_up)
    if round_up:
        result = add(m, result, 1)                      #     result++;
    return result


@kernel
def arm_softmax_s16(m, input, num_rows, row_size, mult, shift, exp_lut, one_by_one_lut, output):
    push(m, 9)                                          # push {r4-r11, lr}
    sub(m, 0, 0)                                        # sub sp, sp, #frame
    fitted_ldr_sp(m)                                    # softmax_params (stacked argument)
    fitted_ldr_sp(m)                                    # softmax_params->exp_lut (caller's stack)
    cbz(m, exp_lut == 0)
    if exp_lut == 0:
        mov(m, ARM_CMSIS_NN_ARG_ERROR)
        add(m, 0, 0)
        pop_pc(m, 9)
        return ARM_CMSIS_NN_ARG_ERROR
    fitted_ldr_sp(m)                                    # softmax_params->one_by_one_lut
    cbz(m, one_by_one_lut == 0)
    if one_by_one_lut == 0:
        mov(m, ARM_CMSIS_NN_ARG_ERROR)
        add(m, 0, 0)
        pop_pc(m, 9)
        return ARM_CMSIS_NN_ARG_ERROR
    # arm_nn_requantize(diff, mult, shift): gcc hoists the shift-only part out of the loops
    rq_left, rq_right, rq_mask, rq_threshold = requantize_setup(m, shift)
    for _ in range(3):                                  # fitted: invariants spilled
        fitted_str_sp(m)
    cmp(m, num_rows, 0)                                 # for (row_idx = 0; row_idx < num_rows; ...)
    bcc(m, num_rows <= 0)
    for row_idx in range(num_rows):
        max_ = ldrsh(m, input)                          # int16_t max = *input;
        cmp(m, row_size, 1)
        bcc(m, row_size <= 1)
        for col in range(1, row_size):                  # max = MAX(max, input[col]);
            v = ldrsh(m, input + 2 * col)
            cmp(m, v, max_)
            it(m, v <= max_)                            # the MOV fails unless v > max
            if v > max_:
                max_ = mov(m, v)
            cmp(m, col + 1, row_size)
            bcc(m, col + 1 < row_size)
        total = mov(m, 0)                               # int32_t sum = 0;
        cmp(m, row_size, 0)
        bcc(m, row_size <= 0)
        for col in range(row_size):
            for _ in range(3 if m.dsp else 1):          # fitted: spill reloads per column
                fitted_ldr_sp(m)
            diff = sub(m, ldrsh(m, input + 2 * col), max_)          # diff = input[col] - max;
            scaled_diff = _requantize(m, diff, mult, rq_left, rq_right, rq_mask, rq_threshold)
            sym = add(m, scaled_diff, NN_Q15_MAX)       # scaled_diff + NN_Q15_MAX
            sym = max_lt(m, sym, NN_Q15_MIN)            # MIN(MAX(sym, NN_Q15_MIN), NN_Q15_MAX)
            cmp(m, sym, NN_Q15_MAX)                     # fitted: this MIN is a branch over
            bcc(m, sym <= NN_Q15_MAX)                   # the MOV (it / bcc split measured)
            if sym > NN_Q15_MAX:
                sym = mov(m, NN_Q15_MAX)
            result = _lut_lookup(m, exp_lut, sym)
            strh(m, output + 2 * col, result)           # cached_exp_results[col] = result;
            total = add(m, total, sxth(m, result, 0))   # sum += cached_exp_results[col];
            cmp(m, col + 1, row_size)
            bcc(m, col + 1 < row_size)
        headroom = clz(m, total)                        # const int32_t headroom = CLZ(sum);
        shifted_sum = asr(m, add(m, lsl(m, total, sub(m, headroom, 1)), 1 << 13), 14)
        sym_sum = sxth(m, sub(m, shifted_sum, 98304), 0)            # (int16_t)(shifted_sum - 98304)
        for _ in range(2):                              # fitted: spill reloads per row
            fitted_ldr_sp(m)
        one_by_one = sxth(m, _lut_lookup(m, one_by_one_lut, sym_sum), 0)
        right_shift = rsb(m, headroom, 30)              # 30 - headroom
        for col in range(row_size):
            if m.dsp:
                cached = ldrh(m, output + 2 * col)      # cached_exp_results[col]
                prod = smulbb(m, cached, one_by_one)
            else:
                cached = ldrsh(m, output + 2 * col)
                prod = mul(m, cached, one_by_one)
            res = asr(m, prod, right_shift)             # (...) >> right_shift
            res = asr(m, add(m, res, 1), 1)             # (result + 1) >> 1
            strh(m, output + 2 * col, res)              # output[col] = (int16_t)result;
            cmp(m, col + 1, row_size)
            bcc(m, col + 1 < row_size)
        output = add(m, output, 2 * row_size)           # output += row_size;
        input = add(m, input, 2 * row_size)             # input += row_size;
        cmp(m, row_idx + 1, num_rows)
        bcc(m, row_idx + 1 < num_rows)
    mov(m, ARM_CMSIS_NN_SUCCESS)
    add(m, 0, 0)                                        # add sp, sp, #frame
    pop_pc(m, 9)
    return ARM_CMSIS_NN_SUCCESS
