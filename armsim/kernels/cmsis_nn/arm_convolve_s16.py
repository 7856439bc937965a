"""arm_convolve_s16 and arm_convolve_wrapper_s16 (Source/ConvolutionFunctions/
arm_convolve_s16.c, arm_convolve_wrapper_s16.c), non-MVE build.

    arm_cmsis_nn_status arm_convolve_s16(const cmsis_nn_context *ctx,
        const cmsis_nn_conv_params *conv_params,
        const cmsis_nn_per_channel_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int16_t *input_data,
        const cmsis_nn_dims *filter_dims, const int8_t *filter_data,
        const cmsis_nn_dims *bias_dims, const cmsis_nn_bias_data *bias_data,
        const cmsis_nn_dims *output_dims, int16_t *output_data)

The wrapper only calls arm_convolve_s16.  im2col: per output pixel and filter tap one libc
call into ctx->buf (int16) -- `memset` to 0 of 2 * input_ch bytes for a padding tap,
`memcpy` of 2 * input_ch bytes otherwise (arm_memset_s8 / arm_memcpy_s8 are the libc
functions without MVE); every second column arm_nn_mat_mult_kernel_s16 multiplies both
with the weights.  An odd last column is done inline: per output channel a SMLAD loop over
`rhs_cols >> 2` steps (DSP) or one MLA per column (plain C), then arm_nn_requantize (int32
bias) or REDUCE_MULTIPLIER + arm_nn_requantize_s64 (int64 bias, accumulated in 32 bits
throughout, as the C does).  Scratch: 2 * input_ch * kernel_x * kernel_y int16 values.

Calibration (../shared/reference/conv_s16_3x3_8x8x8_o8_s1_p1, function arm_convolve_s16
without callees: dsp_O2 17,952 / scalar_O2 17,862 instructions, 576 taps, 64 columns): the
loop bookkeeping and stack traffic per tap and per column (`fitted_ldr_sp`, `fitted_str_sp`, `mov`, `add`
marked "fitted") are set to those totals; the libc calls are newlib's code (kernels/libc.py).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, bl, cbz, cmp, fitted_add, fitted_ldr_sp,
                            fitted_ldrd_sp, fitted_mov, fitted_str_sp, fitted_strd_sp, fitted_sub,
                            ldr, ldrd, ldrsb, ldrsh, mla, mov, mul, orr, pop_pc, push,
                            smlad, strh, sub)
from armsim.kernels.libc import memcpy, memset
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_mat_mult_kernel_s16 import arm_nn_mat_mult_kernel_s16
from .arm_nn_requantize import arm_nn_requantize
from .arm_nn_requantize_s64 import arm_nn_requantize_s64, reduce_multiplier, requantize_s64_setup
from .arm_nn_vec_mat_mult_t_s16 import _add64, read_and_pad

ARG_ERROR = -1


def arm_convolve_s16_get_buffer_size(input_dims, filter_dims):
    """arm_convolve_get_buffer_sizes_s16.c, non-MVE: two im2col columns of int16."""
    return 2 * input_dims["c"] * filter_dims["w"] * filter_dims["h"] * 2


@kernel
def _left_over_column(m, buffer_a, filter_data, rhs_cols, output_ch, is_int32_bias, bias,
                      output_mult, output_shift, act_min, act_max, out):
    """`if (lhs_rows != 0)`: the last odd column, channel by channel."""
    ker_a = filter_data
    for i in range(output_ch):                          # for (i = 0; i < output_ch; i++)
        for _ in range(3):                              # fitted: reloads per channel
            fitted_ldr_sp(m)
        total = mov(m, 0)                               # int32_t sum = 0;
        ip_as_col = buffer_a
        if m.dsp:
            col_count = asr(m, rhs_cols, 2)             # rhs_cols >> 2
            cbz(m, col_count == 0)
            while col_count:
                ker_a, ker_a1, ker_a2 = read_and_pad(m, ker_a)
                ip_b1 = ldr(m, ip_as_col)               # arm_nn_read_q15x2_ia(&ip_as_col)
                total = smlad(m, ker_a1, ip_b1, total)
                ip_b2 = ldr(m, ip_as_col + 4)
                ip_as_col += 8
                total = smlad(m, ker_a2, ip_b2, total)
                col_count = sub(m, col_count, 1)
                bcc(m, col_count != 0)
            col_count = rhs_cols & 3                    # col_count = rhs_cols & 0x3;
        else:
            col_count = rhs_cols & 0xFFFF               # uint16_t col_count = rhs_cols;
        cbz(m, col_count == 0)
        while col_count:
            ker_a1 = ldrsb(m, ker_a)                    # int8_t ker_a1 = *ker_a++;
            ip_b1 = ldrsh(m, ip_as_col)                 # int16_t ip_b1 = *ip_as_col++;
            ker_a += 1
            ip_as_col += 2
            total = mla(m, ker_a1, ip_b1, total)        # sum += ker_a1 * ip_b1;
            col_count = sub(m, col_count, 1)
            bcc(m, col_count != 0)
        mult = ldr(m, output_mult + 4 * i)
        shift = ldr(m, output_shift + 4 * i)
        cmp(m, is_int32_bias, 0)                        # if (is_int32_bias)
        bcc(m, not is_int32_bias)
        if is_int32_bias:
            cbz(m, bias == 0)                           # if (bias_s32)
            if bias != 0:
                total = add(m, total, ldr(m, bias + 4 * i))
            total = arm_nn_requantize(m, total, mult, shift)
        else:
            lo, hi = total, asr(m, total, 31)           # int64_t acc_64 = sum;
            cbz(m, bias == 0)                           # if (bias_s64)
            if bias != 0:
                b_lo, b_hi = ldrd(m, bias + 8 * i)
                lo, hi = _add64(m, lo, hi, b_lo, b_hi)
            reduced = reduce_multiplier(m, mult)
            n, n_left, sign = requantize_s64_setup(m, reduced, shift)
            total = arm_nn_requantize_s64(m, lo, hi, reduced, n, n_left, sign)
        total = max_lt(m, total, act_min)               # sum = MAX(sum, out_activation_min);
        total = min_gt(m, total, act_max)               # sum = MIN(sum, out_activation_max);
        strh(m, out, total)                             # *out++ = (int16_t)sum;
        out += 2
        cmp(m, i + 1, output_ch)
        bcc(m, i + 1 < output_ch)
    return out


@kernel
def arm_convolve_s16(m, buf, input_batches, input_x, input_y, input_ch, kernel_x, kernel_y,
                     output_x, output_y, output_ch, pad_x, pad_y, stride_x, stride_y,
                     dilation_x, dilation_y, out_activation_min, out_activation_max,
                     input_data, filter_data, bias, is_int32_bias, output_mult, output_shift,
                     output_data):
    """Returns (status, GEMM calls)."""
    push(m, 9)                                          # push {r4-r11, lr}
    sub(m, 0, 0)                                        # sub sp, #frame
    fitted_ldr_sp(m)                                    # ctx->buf
    cbz(m, buf == 0)                                    # if (ctx->buf == NULL)
    if buf == 0:
        mov(m, ARG_ERROR)
        fitted_add(m)
        pop_pc(m, 9)
        return ARG_ERROR, 0
    buffer_a = buf
    for _ in range(14):                                 # the dims, conv_params, quant fields
        fitted_ldr_sp(m)
    rhs_cols = mul(m, mul(m, input_ch, kernel_y), kernel_x)
    col_bytes = input_ch << 1                           # sizeof(int16_t) * input_ch
    gemm_calls = 0
    cmp(m, input_batches, 0)
    bcc(m, input_batches <= 0)
    for _batch in range(input_batches):
        im2col = buffer_a
        out = output_data
        lhs_rows = mov(m, 0)
        cmp(m, output_y, 0)
        bcc(m, output_y <= 0)
        for i_out_y in range(output_y):
            cmp(m, output_x, 0)
            bcc(m, output_x <= 0)
            for i_out_x in range(output_x):
                for _ in range(11):                     # fitted: per-column reloads,
                    fitted_ldr_sp(m)                    # copies and branches
                for _ in range(6):
                    fitted_mov(m)
                for _ in range(3):
                    b(m)
                for _ in range(4):
                    fitted_ldrd_sp(m)
                for _ in range(2):
                    fitted_strd_sp(m)
                base_idx_x = sub(m, mul(m, stride_x, i_out_x), pad_x)
                base_idx_y = sub(m, mul(m, stride_y, i_out_y), pad_y)
                for i_ker_y in range(kernel_y):
                    k_y = add(m, base_idx_y, dilation_y * i_ker_y)
                    for i_ker_x in range(kernel_x):
                        for _ in range(6):              # fitted: per-tap reloads, copies,
                            fitted_ldr_sp(m)            # a branch and an index update
                        for _ in range(5):
                            fitted_mov(m)
                        b(m)
                        fitted_sub(m)
                        fitted_add(m)
                        k_x = add(m, base_idx_x, dilation_x * i_ker_x)
                        # if (k_y < 0 || k_y >= input_y || k_x < 0 || k_x >= input_x)
                        orr(m, k_y, k_x)                # ORRS: either index negative
                        outside = k_y < 0 or k_x < 0
                        bcc(m, outside)
                        if not outside:
                            cmp(m, k_y, input_y)
                            bcc(m, k_y >= input_y)
                            outside = k_y >= input_y
                        if not outside:
                            cmp(m, k_x, input_x)
                            bcc(m, k_x >= input_x)
                            outside = k_x >= input_x
                        bl(m)
                        if outside:                     # arm_memset_s8(im2col, 0, 2 * input_ch)
                            fitted_mov(m)
                            memset(m, im2col, 0, col_bytes)
                        else:                           # arm_memcpy_s8(im2col, input + ..., 2 * input_ch)
                            # the row / column address stepped by adds (strength-reduced)
                            src = add(m, input_data, ((k_y * input_x + k_x) * col_bytes))
                            memcpy(m, im2col, src, col_bytes)
                        im2col = add(m, im2col, col_bytes)   # im2col += input_ch;
                        cmp(m, i_ker_x + 1, kernel_x)
                        bcc(m, i_ker_x + 1 < kernel_x)
                    cmp(m, i_ker_y + 1, kernel_y)
                    bcc(m, i_ker_y + 1 < kernel_y)
                lhs_rows = add(m, lhs_rows, 1)          # lhs_rows++;
                cmp(m, lhs_rows, 2)                     # if (lhs_rows == 2)
                bcc(m, lhs_rows != 2)
                if lhs_rows == 2:
                    for _ in range(6):                  # fitted: the call's stacked arguments
                        fitted_str_sp(m)
                    bl(m)
                    out = arm_nn_mat_mult_kernel_s16(m, filter_data, buffer_a, output_ch,
                                                     output_shift, output_mult,
                                                     out_activation_min, out_activation_max,
                                                     rhs_cols, bias, is_int32_bias, out)
                    gemm_calls += 1
                    im2col = buffer_a                   # im2col = buffer_a;
                    lhs_rows = mov(m, 0)                # lhs_rows = 0;
                cmp(m, i_out_x + 1, output_x)
                bcc(m, i_out_x + 1 < output_x)
            cbz(m, out == 0)                            # if (out == NULL)
            cmp(m, i_out_y + 1, output_y)
            bcc(m, i_out_y + 1 < output_y)
        cmp(m, lhs_rows, 0)                             # if (lhs_rows != 0)
        bcc(m, lhs_rows == 0)
        if lhs_rows != 0:
            out = _left_over_column(m, buffer_a, filter_data, rhs_cols, output_ch,
                                    is_int32_bias, bias, output_mult, output_shift,
                                    out_activation_min, out_activation_max, out)
        input_data = add(m, input_data, input_x * input_y * input_ch * 2)
        output_data = add(m, output_data, output_x * output_y * output_ch * 2)
        cmp(m, _batch + 1, input_batches)
        bcc(m, _batch + 1 < input_batches)
    mov(m, 0)                                           # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0, gemm_calls


@kernel
def arm_convolve_wrapper_s16(m, buf, input_batches, input_x, input_y, input_ch, kernel_x,
                             kernel_y, output_x, output_y, output_ch, pad_x, pad_y, stride_x,
                             stride_y, dilation_x, dilation_y, out_activation_min,
                             out_activation_max, input_data, filter_data, bias, is_int32_bias,
                             output_mult, output_shift, output_data):
    """return arm_convolve_s16(...): a tail call (one B)."""
    b(m)
    return arm_convolve_s16(m, buf, input_batches, input_x, input_y, input_ch, kernel_x,
                            kernel_y, output_x, output_y, output_ch, pad_x, pad_y, stride_x,
                            stride_y, dilation_x, dilation_y, out_activation_min,
                            out_activation_max, input_data, filter_data, bias, is_int32_bias,
                            output_mult, output_shift, output_data)
