"""arm_depthwise_conv_fast_s16 (Source/ConvolutionFunctions/arm_depthwise_conv_fast_s16.c)
and arm_depthwise_conv_wrapper_s16 (arm_depthwise_conv_wrapper_s16.c), non-MVE build.

The wrapper takes the fast kernel when USE_FAST_DW_CONV_S16_FUNCTION holds (ch_mult 1, no
dilation, kernel_x * kernel_y < 512), else arm_depthwise_conv_s16.  The fast kernel checks
its arguments (input_ch == output_ch, the kernel size, a buffer when one is needed); without
ARM_MATH_DSP it then calls arm_depthwise_conv_s16 (after arm_depthwise_conv_fast_s16_
get_buffer_size, a counted call in the measured build).  With ARM_MATH_DSP, per output
pixel: im2col of the kernel window into ctx->buf (libc memset of whole padding rows, memset
or memcpy per tap of a row), then four channels at a time: two taps per step (two weight
words widened by SXTB16 / ROR, four q15x2 reads repacked by PKHBT / PKHTB, four SMLAD), an
odd last tap one MUL-accumulate per channel, the int64 bias, REDUCE_MULTIPLIER and
arm_nn_requantize_s64 per channel; the remaining `output_ch & 3` channels one by one.

Calibration (../shared/reference/dw_s16_3x3_8x8x16_m1_p1 dsp_O2: function
arm_depthwise_conv_fast_s16 108,436 instructions, 64 pixels x 4 channel groups): the stack
traffic and loop bookkeeping per channel group and per pixel (`fitted_ldr_sp`, `fitted_str_sp`, `mov`,
`add` marked "fitted") are set to that total; the libc calls are newlib's code.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, bfi, bl, bx, cmp, fitted_add, fitted_ldr_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, fitted_sub, ldr, ldrd, ldrh, ldrsb, ldrsh, mla, mov, mul, pkhbt, pkhtb, pop, pop_pc,
                            push, ror, smlabb, smlad, str_, strh, sub, sxtb16)
from armsim.kernels.libc import memcpy, memset
from armsim.kernels.minmax import max_lt, min_gt

from .arm_depthwise_conv_s16 import arm_depthwise_conv_s16
from .arm_nn_requantize_s64 import arm_nn_requantize_s64, reduce_multiplier, requantize_s64_setup
from .arm_nn_vec_mat_mult_t_s16 import MAX_COL_COUNT, _add64

ARG_ERROR = -1


def arm_depthwise_conv_fast_s16_get_buffer_size(input_dims, filter_dims, dsp):
    """arm_depthwise_conv_get_buffer_sizes_s16.c: the DSP build's im2col buffer, else 0."""
    return input_dims["c"] * filter_dims["w"] * filter_dims["h"] * 2 if dsp else 0


def use_fast(ch_mult, dilation_x, dilation_y, kernel_x, kernel_y):
    """USE_FAST_DW_CONV_S16_FUNCTION (arm_nnsupportfunctions.h)."""
    return ch_mult == 1 and dilation_x == 1 and dilation_y == 1 and kernel_x * kernel_y < 512


@kernel(inline=True)
def _requant_clamp(m, lo, hi, reduced, shift_ptr, act_min, act_max):
    n, n_left, sign = requantize_s64_setup(m, reduced, ldr(m, shift_ptr))   # *output_shift++
    result = arm_nn_requantize_s64(m, lo, hi, reduced, n, n_left, sign)
    result = max_lt(m, result, act_min)
    return min_gt(m, result, act_max)


@kernel(inline=True)
def _requant_clamp_store(m, lo, hi, reduced, shift_ptr, output, act_min, act_max):
    strh(m, output, _requant_clamp(m, lo, hi, reduced, shift_ptr, act_min, act_max))


@kernel(inline=True)
def _store_pair(m, output, r_a, r_b):
    """Two consecutive `*output++ = (int16_t)result;` merged by gcc into one word: BFI of
    each halfword, one STR (the measured build has no STRH in this kernel)."""
    word = bfi(m, 0, r_a, 0, 16)
    word = bfi(m, word, r_b, 16, 16)
    str_(m, output, word)


@kernel
def _fast_dsp(m, buffer_a, input, input_batches, input_x, input_y, input_ch, kernel_,
              kernel_x, kernel_y, pad_x, pad_y, stride_x, stride_y, bias, output, output_shift,
              output_mult, output_x, output_y, act_min, act_max, output_ch):
    col_buffer_start = buffer_a
    bias_start_pos = bias
    taps = kernel_x * kernel_y
    for _batch in range(input_batches):
        for i_out_y in range(output_y):
            base_idx_y = sub(m, mul(m, i_out_y, stride_y), pad_y)
            for i_out_x in range(output_x):
                for _ in range(6):                      # fitted: per-pixel reloads
                    fitted_ldr_sp(m)
                base_idx_x = sub(m, mul(m, i_out_x, stride_x), pad_x)
                ker_y_start = max_lt(m, sub(m, 0, base_idx_y), 0)       # MAX(0, -base_idx_y)
                ker_y_end = min_gt(m, sub(m, input_y, base_idx_y), kernel_y)
                index = mov(m, 0)
                cmp(m, ker_y_start, 0)                  # if (ker_y_start != 0)
                bcc(m, ker_y_start == 0)
                row_elems = kernel_x * input_ch
                if ker_y_start != 0:
                    nbytes = mul(m, mul(m, row_elems, ker_y_start), 2)
                    bl(m)
                    memset(m, col_buffer_start, 0, nbytes)
                    index = add(m, index, row_elems * ker_y_start)
                for i_ker_y in range(ker_y_start, ker_y_end):
                    idx_y = add(m, base_idx_y, i_ker_y)
                    for i_ker_x in range(kernel_x):
                        for _ in range(7):              # fitted: per-tap reloads, spills,
                            fitted_ldr_sp(m)            # copies and index arithmetic
                        for _ in range(3):
                            fitted_str_sp(m)
                        for _ in range(2):
                            fitted_mov(m)
                            fitted_add(m)
                        idx_x = add(m, base_idx_x, i_ker_x)
                        cmp(m, idx_x, 0)                # if (idx_x < 0 || idx_x >= input_x)
                        bcc(m, idx_x < 0)
                        outside = idx_x < 0
                        if not outside:
                            cmp(m, idx_x, input_x)
                            bcc(m, idx_x >= input_x)
                            outside = idx_x >= input_x
                        dst = col_buffer_start + 2 * index
                        bl(m)
                        if outside:                     # memset(&col_buffer[index], 0, ...)
                            memset(m, dst, 0, input_ch * 2)
                        else:                           # arm_memcpy_q15(&col_buffer[index], ...)
                            src = mla(m, add(m, mul(m, idx_y, input_x), idx_x), input_ch * 2, input)
                            memcpy(m, dst, src, input_ch * 2)
                        index = add(m, index, input_ch)
                        cmp(m, i_ker_x + 1, kernel_x)
                        bcc(m, i_ker_x + 1 < kernel_x)
                diff = sub(m, kernel_y, ker_y_end)      # const int diff = kernel_y - ker_y_end;
                cmp(m, diff, 0)
                bcc(m, diff == 0)
                if diff != 0:
                    bl(m)
                    memset(m, col_buffer_start + 2 * index, 0, row_elems * diff * 2)
                row_count = asr(m, output_ch, 2)        # output_ch / 4
                row_shift = mov(m, 0)
                bias = bias_start_pos
                mult_ptr = output_mult
                shift_ptr = output_shift
                while row_count:
                    for _ in range(34):                 # fitted: per-group reloads, spills
                        fitted_ldr_sp(m)                # and copies
                    for _ in range(16):
                        fitted_str_sp(m)
                    for _ in range(12):
                        fitted_mov(m)
                    for _ in range(6):
                        fitted_add(m)
                    for _ in range(4):
                        fitted_sub(m)
                    for _ in range(3):
                        fitted_strd_sp(m)
                    reduced_1 = reduce_multiplier(m, ldr(m, mult_ptr))
                    reduced_2 = reduce_multiplier(m, ldr(m, mult_ptr + 4))
                    reduced_3 = reduce_multiplier(m, ldr(m, mult_ptr + 8))
                    reduced_4 = reduce_multiplier(m, ldr(m, mult_ptr + 12))
                    mult_ptr += 16
                    sum_1 = mov(m, 0)
                    sum_2 = mov(m, 0)
                    sum_3 = mov(m, 0)
                    sum_4 = mov(m, 0)
                    col_count = taps >> 1               # (kernel_x * kernel_y) / 2
                    col_pos = col_buffer_start + 2 * row_shift
                    row_pos = kernel_ + row_shift
                    row_shift = add(m, row_shift, 4)
                    while col_count:
                        row_b1 = ldr(m, row_pos)                    # arm_nn_read_s8x4(row_pos)
                        row_a1 = ldr(m, row_pos + input_ch)         # ... (row_pos + input_ch)
                        col_a = ldr(m, col_pos)                     # arm_nn_read_s16x2(col_pos)
                        col_b = ldr(m, col_pos + 2 * input_ch)
                        row_a2 = sxtb16(m, row_b1, 0)               # SXTB16(row_b1)
                        row_b1 = sxtb16(m, ror(m, row_b1, 8), 0)    # SXTB16(ROR(row_b1, 8))
                        row_b2 = sxtb16(m, row_a1, 0)
                        row_a1 = sxtb16(m, ror(m, row_a1, 8), 0)
                        col_c = pkhbt(m, col_b, col_a, 16)          # PKHBT(col_b, col_a, 16)
                        col_a = pkhtb(m, col_b, col_a, 16)          # PKHTB(col_b, col_a, 16)
                        row_c = pkhbt(m, row_b2, row_a2, 16)
                        sum_1 = smlad(m, col_c, row_c, sum_1)
                        row_c = pkhbt(m, row_b1, row_a1, 16)
                        sum_2 = smlad(m, col_a, row_c, sum_2)
                        col_a = ldr(m, col_pos + 4)                 # (col_pos + 2)
                        col_b = ldr(m, col_pos + 2 * input_ch + 4)
                        col_c = pkhbt(m, col_b, col_a, 16)
                        col_a = pkhtb(m, col_b, col_a, 16)
                        row_c = pkhtb(m, row_a2, row_b2, 16)
                        sum_3 = smlad(m, col_c, row_c, sum_3)
                        row_c = pkhtb(m, row_a1, row_b1, 16)
                        sum_4 = smlad(m, col_a, row_c, sum_4)
                        for _ in range(4):                          # fitted: per-step reloads
                            fitted_ldr_sp(m)
                        fitted_str_sp(m)
                        fitted_mov(m)
                        row_pos = add(m, row_pos, input_ch << 1)    # row_pos += input_ch << 1;
                        col_pos = add(m, col_pos, input_ch << 2)    # col_pos += input_ch << 1;
                        col_count -= 1
                        cmp(m, col_count, 0)
                        bcc(m, col_count != 0)
                    if taps & 1:                        # col_count = (kernel_x * kernel_y) & 0x1
                        # sum_x += row_pos[x] * col_pos[x]: LDRSB, LDRH, SMLABB (the bottom
                        # halfwords: the int16 value, the sign-extended int8)
                        sum_1 = smlabb(m, ldrsb(m, row_pos), ldrh(m, col_pos), sum_1)
                        sum_2 = smlabb(m, ldrsb(m, row_pos + 1), ldrh(m, col_pos + 2), sum_2)
                        sum_3 = smlabb(m, ldrsb(m, row_pos + 2), ldrh(m, col_pos + 4), sum_3)
                        sum_4 = smlabb(m, ldrsb(m, row_pos + 3), ldrh(m, col_pos + 6), sum_4)
                    acc = ((sum_1, asr(m, sum_1, 31)), (sum_2, asr(m, sum_2, 31)),
                           (sum_3, asr(m, sum_3, 31)), (sum_4, asr(m, sum_4, 31)))
                    cmp(m, bias, 0)                     # if (bias)
                    bcc(m, bias == 0)
                    lo1, hi1 = acc[0]
                    lo2, hi2 = acc[1]
                    lo3, hi3 = acc[2]
                    lo4, hi4 = acc[3]
                    if bias != 0:
                        b_lo, b_hi = ldrd(m, bias)
                        lo1, hi1 = _add64(m, lo1, hi1, b_lo, b_hi)
                        b_lo, b_hi = ldrd(m, bias + 8)
                        lo2, hi2 = _add64(m, lo2, hi2, b_lo, b_hi)
                        b_lo, b_hi = ldrd(m, bias + 16)
                        lo3, hi3 = _add64(m, lo3, hi3, b_lo, b_hi)
                        b_lo, b_hi = ldrd(m, bias + 24)
                        lo4, hi4 = _add64(m, lo4, hi4, b_lo, b_hi)
                        bias += 32
                    r1 = _requant_clamp(m, lo1, hi1, reduced_1, shift_ptr, act_min, act_max)
                    r2 = _requant_clamp(m, lo2, hi2, reduced_2, shift_ptr + 4, act_min, act_max)
                    _store_pair(m, output, r1, r2)
                    r3 = _requant_clamp(m, lo3, hi3, reduced_3, shift_ptr + 8, act_min, act_max)
                    r4 = _requant_clamp(m, lo4, hi4, reduced_4, shift_ptr + 12, act_min, act_max)
                    _store_pair(m, output + 4, r3, r4)
                    shift_ptr += 16
                    output += 8
                    row_count = sub(m, row_count, 1)
                    bcc(m, row_count != 0)
                row_count = output_ch & 3               # row_count = output_ch & 0x3;
                while row_count:
                    col_pos = col_buffer_start + 2 * row_shift
                    row_pos = kernel_ + row_shift
                    total = mov(m, 0)
                    row_shift = add(m, row_shift, 1)
                    for i in range(taps):
                        total = mla(m, ldrsb(m, row_pos + i * input_ch),
                                    ldrsh(m, col_pos + 2 * i * input_ch), total)
                        cmp(m, i + 1, taps)
                        bcc(m, i + 1 < taps)
                    lo, hi = total, asr(m, total, 31)
                    cmp(m, bias, 0)
                    bcc(m, bias == 0)
                    if bias != 0:
                        b_lo, b_hi = ldrd(m, bias)
                        lo, hi = _add64(m, lo, hi, b_lo, b_hi)
                        bias += 8
                    reduced = reduce_multiplier(m, ldr(m, mult_ptr))
                    mult_ptr += 4
                    _requant_clamp_store(m, lo, hi, reduced, shift_ptr, output, act_min, act_max)
                    shift_ptr += 4
                    output += 2
                    row_count = sub(m, row_count, 1)
                    bcc(m, row_count != 0)
                cmp(m, i_out_x + 1, output_x)
                bcc(m, i_out_x + 1 < output_x)
            cmp(m, i_out_y + 1, output_y)
            bcc(m, i_out_y + 1 < output_y)
        input = add(m, input, 2 * input_x * input_y * input_ch)


@kernel
def arm_depthwise_conv_fast_s16(m, buf, input, input_batches, input_x, input_y, input_ch,
                                kernel_, kernel_x, kernel_y, pad_x, pad_y, stride_x, stride_y,
                                bias, output, output_shift, output_mult, output_x, output_y,
                                act_min, act_max, output_ch):
    """Returns 0, or ARG_ERROR for the arguments the C refuses."""
    push(m, 9)
    fitted_sub(m)
    for _ in range(4):
        fitted_ldr_sp(m)
    cmp(m, input_ch, output_ch)                         # if (input_ch != output_ch)
    bcc(m, input_ch != output_ch)
    if input_ch != output_ch:
        pop_pc(m, 9)
        return ARG_ERROR
    taps = mul(m, kernel_x, kernel_y)
    cmp(m, taps, MAX_COL_COUNT)                         # if (w * h >= MAX_COL_COUNT)
    bcc(m, taps >= MAX_COL_COUNT)
    if taps >= MAX_COL_COUNT:
        pop_pc(m, 9)
        return ARG_ERROR
    cmp(m, buf, 0)                                      # if (ctx->buf == NULL && size > 0)
    bcc(m, buf != 0)
    if buf == 0:
        bl(m)                                           # arm_depthwise_conv_fast_s16_get_buffer_size
        if m.dsp:
            size = mul(m, mul(m, input_ch, taps), 2)
        else:
            size = mov(m, 0)                            # return 0;
        bx(m)
        cmp(m, size, 0)
        bcc(m, size > 0)
        if size > 0:
            pop_pc(m, 9)
            return ARG_ERROR
    if not m.dsp:                                       # the reference implementation
        for _ in range(8):                              # fitted: arguments restacked
            fitted_ldr_sp(m)
        for _ in range(6):
            fitted_str_sp(m)
        fitted_add(m)
        pop(m, 9)                                       # restore, then a tail call (B)
        b(m)
        return arm_depthwise_conv_s16(m, input, input_batches, input_x, input_y, input_ch,
                                      kernel_, 1, kernel_x, kernel_y, pad_x, pad_y, stride_x,
                                      stride_y, bias, output, output_shift, output_mult,
                                      output_x, output_y, act_min, act_max, 1, 1)
    for _ in range(14):                                 # the dims and params fields
        fitted_ldr_sp(m)
    _fast_dsp(m, buf, input, input_batches, input_x, input_y, input_ch, kernel_, kernel_x,
              kernel_y, pad_x, pad_y, stride_x, stride_y, bias, output, output_shift,
              output_mult, output_x, output_y, act_min, act_max, output_ch)
    fitted_mov(m)
    fitted_add(m)
    pop_pc(m, 9)
    return 0


@kernel
def arm_depthwise_conv_wrapper_s16(m, buf, input, input_batches, input_x, input_y, input_ch,
                                   kernel_, ch_mult, kernel_x, kernel_y, pad_x, pad_y,
                                   stride_x, stride_y, bias, output, output_shift, output_mult,
                                   output_x, output_y, act_min, act_max, dilation_x,
                                   dilation_y, output_ch):
    """Returns (status, 1 if the fast kernel ran).  The callee is reached by a tail call."""
    push(m, 5)
    fitted_sub(m)
    for _ in range(6):                                  # fitted: the dispatch test's loads
        fitted_ldr_sp(m)
    cmp(m, ch_mult, 1)
    bcc(m, ch_mult != 1)
    fast = ch_mult == 1 and dilation_x == 1 and dilation_y == 1 and kernel_x * kernel_y < 512
    if ch_mult == 1:
        cmp(m, dilation_x, 1)
        bcc(m, dilation_x != 1)
        if dilation_x == 1:
            cmp(m, dilation_y, 1)
            bcc(m, dilation_y != 1)
            if dilation_y == 1:
                cmp(m, mul(m, kernel_x, kernel_y), MAX_COL_COUNT)
                bcc(m, kernel_x * kernel_y >= MAX_COL_COUNT)
    for _ in range(8):                                  # fitted: the call's stacked arguments
        fitted_str_sp(m)
    add(m, 0, 0)                                        # add sp, sp, #frame
    pop(m, 5)                                           # restore, then a tail call (B):
    b(m)                                                # the measured builds have no BL here
    if fast:
        status = arm_depthwise_conv_fast_s16(m, buf, input, input_batches, input_x, input_y,
                                             input_ch, kernel_, kernel_x, kernel_y, pad_x,
                                             pad_y, stride_x, stride_y, bias, output,
                                             output_shift, output_mult, output_x, output_y,
                                             act_min, act_max, output_ch)
    else:
        status = arm_depthwise_conv_s16(m, input, input_batches, input_x, input_y, input_ch,
                                        kernel_, ch_mult, kernel_x, kernel_y, pad_x, pad_y,
                                        stride_x, stride_y, bias, output, output_shift,
                                        output_mult, output_x, output_y, act_min, act_max,
                                        dilation_x, dilation_y)
    return status, 1 if fast else 0
