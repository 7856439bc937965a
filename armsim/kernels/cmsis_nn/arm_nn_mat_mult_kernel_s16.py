"""arm_nn_mat_mult_kernel_s16 (Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_s16.c),
non-MVE build.

    int16_t *arm_nn_mat_mult_kernel_s16(const int8_t *input_a, const int16_t *input_b,
        const int32_t output_ch, const int32_t *out_shift, const int32_t *out_mult,
        const int32_t activation_min, const int32_t activation_max, const int32_t num_col_a,
        const cmsis_nn_bias_data *const bias_data, int16_t *out_0)

Two output channels (rows of the int8 weights `input_a`) by two im2col columns (`input_b`,
int16) per pass: four int32 accumulators.  ARM_MATH_DSP: four columns per step
(`read_and_pad` widens four weights, two q15x2 reads per column, eight SMLAD); plain C: one
column per step (four MLA).  With an int32 bias (`is_int32_bias`) every column is done
that way and arm_nn_requantize scales; with an int64 bias only the first
`num_col_a_fast = MIN(num_col_a, MAX_COL_COUNT)` columns are, the rest go into 64-bit
accumulators (SMLAL) and arm_nn_requantize_s64 scales with REDUCE_MULTIPLIER per channel.
An odd last channel alone; as in the C, its DSP tail counts `num_col_a & 3` columns (not
`num_col_a_fast & 3`).

Calibration (../shared/reference/conv_s16_3x3_8x8x8_o8_s1_p1, function
arm_nn_mat_mult_kernel_s16: dsp_O2 93,716 / scalar_O2 115,540 instructions over 32 calls):
the spill reloads / stores and register copies per channel pair and per call (`fitted_ldr_sp`,
`fitted_str_sp`, `mov`, `add` marked "fitted") are set to those totals; the MAC loops follow the C.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, bcc, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, ldr, ldrd, ldrsb,
                            ldrh, ldrsh, mla, mov, pop_pc, push, smlabb, smlad, smlal, smlalbb,
                            strh, sub, uxth)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize import arm_nn_requantize
from .arm_nn_requantize_s64 import arm_nn_requantize_s64, reduce_multiplier, requantize_s64_setup
from .arm_nn_vec_mat_mult_t_s16 import MAX_COL_COUNT, _add64, read_and_pad


@kernel(inline=True)
def _clamp_store(m, x, dst, act_min, act_max):
    x = max_lt(m, x, act_min)                           # MAX(x, activation_min)
    x = min_gt(m, x, act_max)                           # MIN(x, activation_max)
    strh(m, dst, x)                                     # *out_x++ = (int16_t)x;


@kernel(inline=True)
def _scalar_cols(m, ip_a0, ip_a1, ip_b0, ip_b1, c00, c01, c10, c11, col_count, two):
    """while (col_count) { a0 * b0, a0 * b1 [, a1 * b0, a1 * b1] } into int32 (MLA; for one
    row, gcc -mcpu=cortex-m4 loads the halfwords with LDRH and multiplies with SMLABB)."""
    cmp(m, col_count, 0)
    bcc(m, col_count == 0)
    while col_count:
        a0 = ldrsb(m, ip_a0)                            # int8_t a0 = *ip_a0++;
        ip_a0 += 1
        if m.dsp and not two:
            c00 = smlabb(m, ldrh(m, ip_b0), a0, c00)    # ch_0_out_0 += a0 * b0;
            b1 = ldrh(m, ip_b1)
            ip_b0 += 2
            ip_b1 += 2
            col_count -= 1                              # col_count--: a pointer compare
            cmp(m, col_count, 0)
            c01 = smlabb(m, b1, a0, c01)                # ch_0_out_1 += a0 * b1;
            bcc(m, col_count != 0)
            continue
        b0 = ldrsh(m, ip_b0)                            # int16_t b0 = *ip_b0++;
        b1 = ldrsh(m, ip_b1)                            # int16_t b1 = *ip_b1++;
        ip_b0 += 2
        ip_b1 += 2
        c00 = mla(m, a0, b0, c00)
        c01 = mla(m, a0, b1, c01)
        if two:
            a1 = ldrsb(m, ip_a1)                        # int8_t a1 = *ip_a1++;
            ip_a1 += 1
            c10 = mla(m, a1, b0, c10)
            c11 = mla(m, a1, b1, c11)
        col_count -= 1                                  # col_count--: a pointer compare
        cmp(m, col_count, 0)
        bcc(m, col_count != 0)
    return ip_a0, ip_a1, ip_b0, ip_b1, c00, c01, c10, c11


@kernel(inline=True)
def mac64(m, lo, hi, a, b):
    """int64 += int16 * int16 (sign-extended halfwords): gcc emits SMLALBB for Cortex-M4
    (DSP), SMLAL for Cortex-M3 (no SMLALBB)."""
    if m.dsp:
        return smlalbb(m, lo, hi, a, b)
    return smlal(m, lo, hi, a, b)


@kernel(inline=True)
def _slow_cols(m, ip_a0, ip_a1, ip_b0, ip_b1, acc, col_count, two):
    """The columns past MAX_COL_COUNT into the int64 accumulators (SMLALBB in the DSP build,
    SMLAL in the plain one).  `acc` holds (lo, hi) of ch_0_out_0, ch_0_out_1, ch_1_out_0,
    ch_1_out_1."""
    l00, h00, l01, h01, l10, h10, l11, h11 = acc
    while col_count:
        a0 = ldrsb(m, ip_a0)
        b0 = ldrsh(m, ip_b0)
        b1 = ldrsh(m, ip_b1)
        ip_a0 += 1
        ip_b0 += 2
        ip_b1 += 2
        l00, h00 = mac64(m, l00, h00, a0, b0)
        l01, h01 = mac64(m, l01, h01, a0, b1)
        if two:
            a1 = ldrsb(m, ip_a1)
            ip_a1 += 1
            l10, h10 = mac64(m, l10, h10, a1, b0)
            l11, h11 = mac64(m, l11, h11, a1, b1)
        col_count = sub(m, col_count, 1)
        bcc(m, col_count != 0)
    return (l00, h00, l01, h01, l10, h10, l11, h11)


@kernel(inline=True)
def _requant_s64_pair(m, lo_0, hi_0, lo_1, hi_1, mult_ptr, shift_ptr):
    """REDUCE_MULTIPLIER(*out_mult) and two arm_nn_requantize_s64 with *out_shift."""
    reduced = reduce_multiplier(m, ldr(m, mult_ptr))
    n, n_left, sign = requantize_s64_setup(m, reduced, ldr(m, shift_ptr))
    r0 = arm_nn_requantize_s64(m, lo_0, hi_0, reduced, n, n_left, sign)
    r1 = arm_nn_requantize_s64(m, lo_1, hi_1, reduced, n, n_left, sign)
    return r0, r1


@kernel
def _channel_block(m, ip_a0, input_b, num_col_a, num_col_a_fast, is_int32_bias, bias,
                   out_mult, out_shift, act_min, act_max, out_0, out_1, two, dsp_tail):
    """One pass of the row loop (two = True) or the odd last channel (two = False).
    Returns (ip_a0 after the pass's columns, bias, out_mult, out_shift, out_0, out_1)."""
    ip_b0 = input_b
    ip_b1 = add(m, input_b, num_col_a << 1)             # ip_b1 = ip_b0 + num_col_a;
    ip_a1 = 0
    if two:
        ip_a1 = add(m, ip_a0, num_col_a)                # ip_a1 = ip_a0 + num_col_a;
    c00 = mov(m, 0)
    c01 = mov(m, 0)
    c10 = 0
    c11 = 0
    if two:
        c10 = mov(m, 0)
        c11 = mov(m, 0)
    if m.dsp:
        col_count = uxth(m, asr(m, num_col_a_fast, 2), 0)   # uint16_t col_count = fast / 4
        cmp(m, col_count, 0)
        bcc(m, col_count == 0)
        while col_count:
            b0 = ldr(m, ip_b0)                          # arm_nn_read_q15x2_ia(&ip_b0)
            b1 = ldr(m, ip_b1)                          # arm_nn_read_q15x2_ia(&ip_b1)
            ip_a0, a01, a02 = read_and_pad(m, ip_a0)
            if two:
                ip_a1, a11, a12 = read_and_pad(m, ip_a1)
            c00 = smlad(m, a01, b0, c00)
            c01 = smlad(m, a01, b1, c01)
            if two:
                c10 = smlad(m, a11, b0, c10)
                c11 = smlad(m, a11, b1, c11)
            b0 = ldr(m, ip_b0 + 4)
            b1 = ldr(m, ip_b1 + 4)
            ip_b0 += 8
            ip_b1 += 8
            c00 = smlad(m, a02, b0, c00)
            c01 = smlad(m, a02, b1, c01)
            if two:
                c10 = smlad(m, a12, b0, c10)
                c11 = smlad(m, a12, b1, c11)
                for _ in range(3):                      # fitted: accumulators / pointers
                    fitted_ldr_sp(m)                    # spilled and reloaded per step
                for _ in range(2):
                    fitted_str_sp(m)
                for _ in range(3):
                    fitted_add(m)
            col_count -= 1                              # col_count--: a pointer compare
            cmp(m, col_count, 0)
            bcc(m, col_count != 0)
        col_count = and_(m, dsp_tail, 3)                # col_count = num_col_a_fast & 0x3;
    else:
        col_count = num_col_a_fast                      # int32_t col_count = num_col_a_fast;
    ip_a0, ip_a1, ip_b0, ip_b1, c00, c01, c10, c11 = _scalar_cols(
        m, ip_a0, ip_a1, ip_b0, ip_b1, c00, c01, c10, c11, col_count, two)
    cmp(m, is_int32_bias, 0)                            # if (is_int32_bias)
    bcc(m, not is_int32_bias)
    if is_int32_bias:
        cmp(m, bias, 0)                                 # if (bias_s32)
        bcc(m, bias == 0)
        if bias != 0:
            b_0 = ldr(m, bias)
            c00 = add(m, c00, b_0)
            c01 = add(m, c01, b_0)
            bias += 4
            if two:
                b_1 = ldr(m, bias)
                c10 = add(m, c10, b_1)
                c11 = add(m, c11, b_1)
                bias += 4
        mult = ldr(m, out_mult)
        shift = ldr(m, out_shift)
        c00 = arm_nn_requantize(m, c00, mult, shift)
        c01 = arm_nn_requantize(m, c01, mult, shift)
        out_mult += 4
        out_shift += 4
        _clamp_store(m, c00, out_0, act_min, act_max)
        out_0 += 2
        _clamp_store(m, c01, out_1, act_min, act_max)
        out_1 += 2
        if two:
            mult = ldr(m, out_mult)
            shift = ldr(m, out_shift)
            c10 = arm_nn_requantize(m, c10, mult, shift)
            c11 = arm_nn_requantize(m, c11, mult, shift)
            out_mult += 4
            out_shift += 4
            _clamp_store(m, c10, out_0, act_min, act_max)
            out_0 += 2
            _clamp_store(m, c11, out_1, act_min, act_max)
            out_1 += 2
    else:
        acc = (c00, asr(m, c00, 31), c01, asr(m, c01, 31), c10, 0, c11, 0)
        if two:
            acc = (c00, acc[1], c01, acc[3], c10, asr(m, c10, 31), c11, asr(m, c11, 31))
        cmp(m, num_col_a, MAX_COL_COUNT)                # if (num_col_a > MAX_COL_COUNT)
        bcc(m, num_col_a <= MAX_COL_COUNT)
        if num_col_a > MAX_COL_COUNT:
            acc = _slow_cols(m, ip_a0, ip_a1, ip_b0, ip_b1, acc, num_col_a - MAX_COL_COUNT, two)
            ip_a0 += num_col_a - MAX_COL_COUNT
        l00, h00, l01, h01, l10, h10, l11, h11 = acc
        cmp(m, bias, 0)                                 # if (bias_s64)
        bcc(m, bias == 0)
        if bias != 0:
            bl_, bh_ = ldrd(m, bias)
            l00, h00 = _add64(m, l00, h00, bl_, bh_)
            l01, h01 = _add64(m, l01, h01, bl_, bh_)
            bias += 8
            if two:
                bl_, bh_ = ldrd(m, bias)
                l10, h10 = _add64(m, l10, h10, bl_, bh_)
                l11, h11 = _add64(m, l11, h11, bl_, bh_)
                bias += 8
        c00, c01 = _requant_s64_pair(m, l00, h00, l01, h01, out_mult, out_shift)
        out_mult += 4
        out_shift += 4
        if two:
            c10, c11 = _requant_s64_pair(m, l10, h10, l11, h11, out_mult, out_shift)
            out_mult += 4
            out_shift += 4
        _clamp_store(m, c00, out_0, act_min, act_max)
        out_0 += 2
        _clamp_store(m, c01, out_1, act_min, act_max)
        out_1 += 2
        if two:
            _clamp_store(m, c10, out_0, act_min, act_max)
            out_0 += 2
            _clamp_store(m, c11, out_1, act_min, act_max)
            out_1 += 2
    return ip_a0, bias, out_mult, out_shift, out_0, out_1


@kernel
def arm_nn_mat_mult_kernel_s16(m, input_a, input_b, output_ch, out_shift, out_mult,
                               activation_min, activation_max, num_col_a, bias,
                               is_int32_bias, out_0):
    """Returns the advanced out_0 (the C returns it; the caller continues there)."""
    push(m, 9)                                          # push {r4-r11, lr}
    sub(m, 0, 0)                                        # sub sp, sp, #frame
    for _ in range(6):                                  # stacked arguments, bias_data fields
        fitted_ldr_sp(m)
    num_col_a_fast = num_col_a
    cmp(m, is_int32_bias, 0)
    bcc(m, bool(is_int32_bias))
    if not is_int32_bias and num_col_a > MAX_COL_COUNT:
        num_col_a_fast = mov(m, MAX_COL_COUNT)
    out_1 = add(m, out_0, output_ch << 1)               # out_1 = out_0 + output_ch;
    row_count = asr(m, output_ch, 1)                    # row_count = output_ch / 2;
    ip_a0 = input_a
    for _ in range(4):                                  # fitted: invariants spilled
        fitted_str_sp(m)
    cmp(m, row_count, 0)
    bcc(m, row_count == 0)
    while row_count:
        for _ in range(8):                              # fitted: reloads per channel pair
            fitted_ldr_sp(m)
        if m.dsp:
            for _ in range(8):                          # fitted: 64-bit spills per channel pair
                fitted_ldrd_sp(m)
                fitted_strd_sp(m)
            for _ in range(2):                          # fitted: register copies
                fitted_mov(m)
        else:
            for _ in range(15):                         # fitted: reloads, spills, copies and
                fitted_ldr_sp(m)                        # address updates per channel pair
            for _ in range(8):                          # (plain C)
                fitted_str_sp(m)
                fitted_mov(m)
            for _ in range(19):
                fitted_add(m)
        ip_a0, bias, out_mult, out_shift, out_0, out_1 = _channel_block(
            m, ip_a0, input_b, num_col_a, num_col_a_fast, is_int32_bias, bias, out_mult,
            out_shift, activation_min, activation_max, out_0, out_1, True, num_col_a_fast)
        ip_a0 = add(m, ip_a0, num_col_a)                # ip_a0 += num_col_a;  (skip row)
        row_count = sub(m, row_count, 1)                # row_count--;
        bcc(m, row_count != 0)
    odd = and_(m, output_ch, 1)
    cmp(m, odd, 0)                                      # if (output_ch & 0x1)
    bcc(m, odd == 0)
    if odd:
        for _ in range(6):                              # fitted: reloads for the last channel
            fitted_ldr_sp(m)
        ip_a0, bias, out_mult, out_shift, out_0, out_1 = _channel_block(
            m, ip_a0, input_b, num_col_a, num_col_a_fast, is_int32_bias, bias, out_mult,
            out_shift, activation_min, activation_max, out_0, out_1, False, num_col_a)
    out_0 = add(m, out_0, output_ch << 1)               # out_0 += output_ch;
    add(m, 0, 0)                                        # add sp, sp, #frame
    pop_pc(m, 9)
    return out_0
