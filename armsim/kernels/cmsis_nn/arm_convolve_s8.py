"""arm_convolve_s8 (Source/ConvolutionFunctions/arm_convolve_s8.c), non-MVE build.

    arm_cmsis_nn_status arm_convolve_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_conv_params *conv_params,
        const cmsis_nn_per_channel_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int8_t *input_data,
        const cmsis_nn_dims *filter_dims, const int8_t *filter_data,
        const cmsis_nn_dims *bias_dims, const int32_t *bias_data,
        const cmsis_nn_dims *upscale_dims, const cmsis_nn_dims *output_dims,
        int8_t *output_data)

im2col: for each output pixel (per group), each filter tap is one libc call into the int8
half of ctx->buf -- `memcpy` of kernel_ch bytes for a tap inside the input, `memset` to
-input_offset for a padding tap (so that input + input_offset == 0 there) -- then the
column is widened to int16 with the input offset added (arm_s8_to_s16_unordered_with_offset
with ARM_MATH_DSP, arm_q7_to_q15_with_offset without) into the int16 half; every second
column both are multiplied with the weights by arm_nn_mat_mult_kernel_s8_s16
(arm_nn_mat_mult_kernel_row_offset_s8_s16 when groups > 1).  An odd last column is done
inline.  Dilation by tap address; groups by channel offset.

Struct fields and the uint16_t locals the C keeps on the stack are `fitted_ldr_sp` (they are
loads, but of the stack, not of a simulated region).  `upscale_dims` is NULL from
arm_convolve_wrapper_s8 (`arm_convolve_s8`) and {0, stride_h, stride_w, 0} from
arm_transpose_conv_wrapper_s8's reverse path (`convolve_s8_body` with upscale_h/w > 0): a
stride-2 dimension reads the zero-upscaled input (y_rshift/x_rshift), each column starts
as one `memset` of the whole tap window to -input_offset and only the taps on even
upscaled rows/columns are copied.  The bookkeeping of that branch is fitted to
../shared/reference tconv_s8_3x3x24_o8_k3_s2 (function `arm_convolve_s8`: dsp_O2 7,266,
scalar_O2 7,080 instructions), not read off a disassembly.

Address arithmetic is stepped (GCC strength-reduces the index products to adds), so the
ops issued for it are `add`s.  The loop bookkeeping and the stack traffic of the many
spilled locals (`fitted_ldr_sp`/`fitted_str_sp`/`fitted_strd_sp`, and `mov`/`add` whose operands do not matter)
are not derived from a disassembly: their number is calibrated against the measured
per-function counts (../shared/reference conv3x3_16x16x3_o8_s1_p1,
conv3x3_8x8x16_o16_s2_p1, conv1x3_1x32x8_o16_p1, function `arm_convolve_s8` excluding
callees: ~25 instructions per filter tap, ~60 per column, ~300 per call).  The libc calls
are the real newlib code (kernels/libc.py) and match the measured memcpy/memset counts
exactly.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (IM2COL, add, and_, asr, b, bcc, bl, cbz, cmp, enter_region, fitted_add,
                            fitted_ldr_sp, fitted_mov, fitted_str_sp, fitted_strd_sp, it, ldr,
                            ldrsb, ldrsh, leave_region, lsr, mla, mls, mov, mul, pop_pc, push,
                            smlad, strb, sub, sxtb, udiv)
from armsim.kernels.minmax import max_lt, min_gt

from armsim.kernels.libc import memcpy, memset
from .arm_nn_mat_mult_kernel_row_offset_s8_s16 import arm_nn_mat_mult_kernel_row_offset_s8_s16
from .arm_nn_mat_mult_kernel_s8_s16 import arm_nn_mat_mult_kernel_s8_s16
from .arm_nn_requantize import arm_nn_requantize
from .arm_nn_types import NULL_DIMS
from .arm_q7_to_q15_with_offset import arm_q7_to_q15_with_offset
from .arm_s8_to_s16_unordered_with_offset import arm_s8_to_s16_unordered_with_offset
from .read_and_pad_reordered import read_and_pad_reordered

ARG_ERROR = -1
# which GEMM kernel ran (for the kernel chain): 0 none, 1 arm_nn_mat_mult_kernel_s8_s16,
# 2 arm_nn_mat_mult_kernel_row_offset_s8_s16
GEMM_NONE = 0
GEMM_S8_S16 = 1
GEMM_ROW_OFFSET = 2


@kernel
def _upscaled_column(m, im2col_buf, input_data, input_x, input_y, input_ch, kernel_x, kernel_y,
                     kernel_ch, base_idx_x, base_idx_y, dilation_x, dilation_y, pad_val,
                     y_rshift, x_rshift, input_x_rshifted):
    """One im2col column of the upscaled input (y_rshift or x_rshift set): the whole window
    set to -input_offset, then the taps that hit an input value copied.  input_x/input_y
    are the upscaled extents.  Returns the advanced im2col_buf."""
    # arm_memset_s8(im2col_buf, (int8_t)-input_offset, kernel_ch * kernel_x * kernel_y)
    for _ in range(6):
        fitted_ldr_sp(m)                                  # the branch's spilled locals
    for _ in range(4):
        fitted_str_sp(m)
    fitted_mov(m)
    fitted_mov(m)
    window = mul(m, mul(m, kernel_ch, kernel_x), kernel_y)
    mov(m, pad_val)
    mov(m, im2col_buf)
    bl(m)
    memset(m, im2col_buf, pad_val, window)
    row_bytes = mul(m, kernel_ch, kernel_x)
    cmp(m, kernel_y, 0)
    bcc(m, kernel_y <= 0)
    for i_ker_y in range(kernel_y):
        fitted_ldr_sp(m)
        fitted_ldr_sp(m)
        fitted_str_sp(m)
        fitted_add(m)
        k_y = add(m, base_idx_y, dilation_y * i_ker_y)    # k_y = base_idx_y + dilation_y * i_ker_y;
        # if ((k_y < 0 || k_y >= input_y) || (k_y % 2 && y_rshift == 1))
        skip = k_y < 0 or k_y >= input_y
        cmp(m, k_y, 0)
        bcc(m, k_y < 0)
        if k_y >= 0:
            cmp(m, k_y, input_y)
            bcc(m, k_y >= input_y)
            if k_y < input_y:
                odd = and_(m, k_y, 1)                     # k_y % 2 (k_y >= 0 here)
                cmp(m, odd, 0)
                bcc(m, odd == 0)
                if odd:
                    cmp(m, y_rshift, 1)
                    bcc(m, y_rshift == 1)
                    skip = y_rshift == 1
        if skip:
            im2col_buf = add(m, im2col_buf, row_bytes)    # im2col_buf += kernel_ch * kernel_x;
        else:
            k_y_rshifted = asr(m, k_y, y_rshift)          # k_y >> y_rshift
            row_ptr = mla(m, k_y_rshifted, input_x_rshifted, 0)
            cmp(m, kernel_x, 0)
            bcc(m, kernel_x <= 0)
            for i_ker_x in range(kernel_x):
                fitted_ldr_sp(m)                          # uint16_t locals reloaded from the stack
                fitted_ldr_sp(m)
                fitted_ldr_sp(m)
                fitted_mov(m)
                k_x = add(m, base_idx_x, dilation_x * i_ker_x)   # k_x = base_idx_x + dilation_x * i_ker_x;
                # if ((k_x >= 0 && k_x < input_x) && ((k_x % 2 == 0) || x_rshift == 0))
                copy = False
                cmp(m, k_x, 0)
                bcc(m, k_x < 0)
                if k_x >= 0:
                    cmp(m, k_x, input_x)
                    bcc(m, k_x >= input_x)
                    if k_x < input_x:
                        odd = and_(m, k_x, 1)
                        cmp(m, odd, 0)
                        bcc(m, odd != 0)
                        copy = odd == 0
                        if odd:
                            cmp(m, x_rshift, 0)
                            bcc(m, x_rshift != 0)
                            copy = x_rshift == 0
                if copy:
                    k_x_rshifted = asr(m, k_x, x_rshift)  # k_x >> x_rshift
                    # arm_memcpy_s8(im2col_buf, input_data + (k_y_rshifted * input_x_rshifted
                    #               + k_x_rshifted) * input_ch, kernel_ch)
                    src = mla(m, add(m, row_ptr, k_x_rshifted), input_ch, input_data)
                    mov(m, im2col_buf)
                    mov(m, kernel_ch)
                    bl(m)
                    memcpy(m, im2col_buf, src, kernel_ch)
                im2col_buf = add(m, im2col_buf, kernel_ch)  # im2col_buf += kernel_ch;
                cmp(m, i_ker_x + 1, kernel_x)
                bcc(m, i_ker_x + 1 < kernel_x)
        cmp(m, i_ker_y + 1, kernel_y)
        bcc(m, i_ker_y + 1 < kernel_y)
    return im2col_buf


@kernel
def arm_convolve_s8(m, ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                    filter_data, bias_data, output_dims, output_data):
    """upscale_dims == NULL.  Returns (status, gemm): status 0 or ARG_ERROR; gemm which GEMM
    kernel ran.  The structs are `arm_nn_types`' (bias_dims, unread by the C, is left out)."""
    return convolve_s8_body(m, ctx, conv_params, quant_params, input_dims, input_data,
                            filter_dims, filter_data, bias_data, NULL_DIMS, output_dims,
                            output_data)


@kernel
def convolve_s8_body(m, ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                     filter_data, bias_data, upscale_dims, output_dims, output_data):
    """arm_convolve_s8 with `upscale_dims` (h == 0: NULL)."""
    buf = ctx.buf
    input_batches = input_dims.n
    input_x = input_dims.w
    input_y = input_dims.h
    input_ch = input_dims.c
    kernel_x = filter_dims.w
    kernel_y = filter_dims.h
    kernel_ch = filter_dims.c
    output_x = output_dims.w
    output_y = output_dims.h
    output_ch = output_dims.c
    pad_x = conv_params.padding.w
    pad_y = conv_params.padding.h
    stride_x = conv_params.stride.w
    stride_y = conv_params.stride.h
    dilation_x = conv_params.dilation.w
    dilation_y = conv_params.dilation.h
    input_offset = conv_params.input_offset
    out_offset = conv_params.output_offset
    out_activation_min = conv_params.activation.min
    out_activation_max = conv_params.activation.max
    output_mult = quant_params.multiplier
    output_shift = quant_params.shift
    upscale_h = upscale_dims.h
    upscale_w = upscale_dims.w
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, #frame
    gemm = GEMM_NONE
    fitted_ldr_sp(m)                                  # ctx->buf
    cbz(m, buf == 0)                                  # if (ctx->buf == NULL)
    if buf == 0:
        mov(m, ARG_ERROR)
        fitted_add(m)
        pop_pc(m, 9)
        return ARG_ERROR, gemm
    buffer_a = buf                                    # int16_t *buffer_a = (int16_t *)ctx->buf;
    for _ in range(16):
        fitted_ldr_sp(m)                              # the dims and conv_params fields
    groups = udiv(m, input_ch, kernel_ch)             # groups = input_ch / kernel_ch;
    rhs_cols = mul(m, mul(m, kernel_x, kernel_y), kernel_ch)  # rhs_cols = kernel_x * kernel_y * kernel_ch;
    output_ch_per_group = udiv(m, output_ch, groups)  # output_ch_per_group = output_ch / groups;
    r1 = udiv(m, input_ch, groups)
    r1 = mls(m, r1, groups, input_ch)                 # input_ch % groups
    r2 = mls(m, output_ch_per_group, groups, output_ch)  # output_ch % groups
    cmp(m, r1, 0)                                     # if (input_ch % groups != 0 || output_ch % groups != 0)
    bcc(m, r1 != 0)
    if r1 == 0:
        cmp(m, r2, 0)
        bcc(m, r2 != 0)
    if r1 != 0 or r2 != 0:
        mov(m, ARG_ERROR)
        fitted_add(m)
        pop_pc(m, 9)
        return ARG_ERROR, gemm
    y_rshift = 0
    x_rshift = 0
    upscaled = upscale_h != 0
    cmp(m, upscale_h, 0)                              # if (upscale_dims)
    bcc(m, upscaled)                                  # (NULL falls through)
    if upscaled:
        fitted_ldr_sp(m)                              # upscale_dims->h
        fitted_ldr_sp(m)                              # upscale_dims->w
        cmp(m, upscale_h, 2)                          # y_rshift = upscale_dims->h == 2 ? 1 : 0;
        y_rshift = 1 if upscale_h == 2 else 0
        it(m, 0)
        mov(m, y_rshift)
        cmp(m, upscale_w, 2)                          # x_rshift = upscale_dims->w == 2 ? 1 : 0;
        x_rshift = 1 if upscale_w == 2 else 0
        it(m, 0)
        mov(m, x_rshift)
    input_x_rshifted = input_x
    if upscaled:
        input_x_rshifted = lsr(m, input_x, x_rshift)  # input_x_rshifted = input_x >> x_rshift;
    remainder = and_(m, rhs_cols, 3)                  # remainder = rhs_cols % 4;
    aligned_rhs_cols = rhs_cols
    it(m, remainder == 0)                             # the ADD fails when rhs_cols % 4 == 0
    if remainder != 0:                                # aligned_rhs_cols = rhs_cols + 4 - remainder
        aligned_rhs_cols = add(m, rhs_cols, 4 - remainder)
    pad_val = sxtb(m, sub(m, 0, input_offset), 0)    # (int8_t)-input_offset
    for _ in range(24):
        fitted_str_sp(m)                              # locals spilled for the loops
    for _ in range(24):
        fitted_ldr_sp(m)
    for _ in range(20):
        fitted_mov(m)
        fitted_add(m)
    i_batch = 0
    cmp(m, input_batches, 0)
    bcc(m, input_batches <= 0)
    while i_batch < input_batches:
        im2col_buf = add(m, buffer_a, aligned_rhs_cols * 2)  # (int8_t *)buffer_a + aligned_rhs_cols * 2
        im2col_buf_start_s16 = mov(m, buffer_a)       # im2col_buf_start_s16 = buffer_a;
        lhs_rows = mov(m, 0)
        filter_data_ptr = filter_data
        bias_data_ptr = bias_data
        output_mult_ptr = output_mult
        output_shift_ptr = output_shift
        for _ in range(4):
            fitted_str_sp(m)
        i_group = 0
        while i_group < groups:
            out = mla(m, i_group, output_ch_per_group, output_data)  # output_data + i_group * output_ch_per_group
            i_out_y = 0
            cmp(m, output_y, 0)
            bcc(m, output_y <= 0)
            while i_out_y < output_y:
                i_out_x = 0
                base_idx_y = add(m, stride_y * i_out_y, -pad_y)  # base_idx_y = stride_y * i_out_y - pad_y;  (stepped)
                for _ in range(5):
                    fitted_ldr_sp(m)                  # the row loop's spilled locals
                    fitted_str_sp(m)
                for _ in range(4):
                    fitted_mov(m)
                    fitted_add(m)
                cmp(m, output_x, 0)
                bcc(m, output_x <= 0)
                while i_out_x < output_x:
                    for _ in range(8):
                        fitted_ldr_sp(m)              # the column loop's spilled locals
                    for _ in range(4):
                        fitted_str_sp(m)
                    fitted_strd_sp(m)
                    fitted_strd_sp(m)
                    for _ in range(4):
                        fitted_mov(m)
                    for _ in range(6):
                        fitted_add(m)
                    fitted_ldr_sp(m)
                    fitted_ldr_sp(m)
                    base_idx_x = add(m, stride_x * i_out_x, -pad_x)  # base_idx_x = stride_x * i_out_x - pad_x;  (stepped)
                    outer = m
                    m = enter_region(outer, IM2COL)   # the column: taps copied, then widened
                    rshifted = y_rshift == 1 or x_rshift == 1
                    cmp(m, y_rshift | x_rshift, 0)          # if (y_rshift == 1 || x_rshift == 1)  (flags kept in a register)
                    bcc(m, rshifted)
                    if rshifted:
                        im2col_buf = _upscaled_column(
                            m, im2col_buf, input_data, input_x, input_y, input_ch, kernel_x, kernel_y,
                            kernel_ch, base_idx_x, base_idx_y, dilation_x, dilation_y, pad_val, y_rshift,
                            x_rshift, input_x_rshifted)
                    else:
                        i_ker_y = 0
                        cmp(m, kernel_y, 0)
                        bcc(m, kernel_y <= 0)
                        while i_ker_y < kernel_y:
                            fitted_ldr_sp(m)
                            k_y = add(m, base_idx_y, dilation_y * i_ker_y)  # k_y = base_idx_y + dilation_y * i_ker_y;  (stepped)
                            k_x = mov(m, base_idx_x)
                            # input_data + (k_y * input_x + k_x) * input_ch + i_group * kernel_ch, stepped
                            row_ptr = add(m, input_data + (k_y * input_x) * input_ch + i_group * kernel_ch, 0)
                            i_ker_x = 0
                            cmp(m, kernel_x, 0)
                            bcc(m, kernel_x <= 0)
                            while i_ker_x < kernel_x:
                                fitted_ldr_sp(m)          # uint16_t locals reloaded from the stack
                                fitted_ldr_sp(m)
                                fitted_ldr_sp(m)
                                mov(m, im2col_buf)
                                fitted_add(m)
                                # if (k_y < 0 || k_y >= input_y || k_x < 0 || k_x >= input_x)
                                pad = False
                                cmp(m, k_y, 0)
                                bcc(m, k_y < 0)
                                if k_y < 0:
                                    pad = True
                                else:
                                    cmp(m, k_y, input_y)
                                    bcc(m, k_y >= input_y)
                                    if k_y >= input_y:
                                        pad = True
                                    else:
                                        cmp(m, k_x, 0)
                                        bcc(m, k_x < 0)
                                        if k_x < 0:
                                            pad = True
                                        else:
                                            cmp(m, k_x, input_x)
                                            bcc(m, k_x >= input_x)
                                            pad = k_x >= input_x
                                if pad:
                                    # arm_memset_s8(im2col_buf, (int8_t)-input_offset, kernel_ch)
                                    mov(m, pad_val)
                                    mov(m, im2col_buf)
                                    mov(m, kernel_ch)
                                    bl(m)
                                    memset(m, im2col_buf, pad_val, kernel_ch)
                                    b(m)
                                else:
                                    # arm_memcpy_s8(im2col_buf, input_data + (k_y * input_x + k_x) * input_ch
                                    #               + i_group * kernel_ch, kernel_ch)
                                    src = add(m, row_ptr, k_x * input_ch)
                                    mov(m, im2col_buf)
                                    mov(m, kernel_ch)
                                    bl(m)
                                    memcpy(m, im2col_buf, src, kernel_ch)
                                im2col_buf = add(m, im2col_buf, kernel_ch)  # im2col_buf += kernel_ch;
                                k_x = add(m, k_x, dilation_x)
                                fitted_add(m)           # k_x * input_ch, stepped
                                i_ker_x = add(m, i_ker_x, 1)
                                cmp(m, i_ker_x, kernel_x)
                                bcc(m, i_ker_x < kernel_x)
                            i_ker_y = add(m, i_ker_y, 1)
                            cmp(m, i_ker_y, kernel_y)
                            bcc(m, i_ker_y < kernel_y)
                    lhs_rows = add(m, lhs_rows, 1)    # lhs_rows++;
                    # copy one column with the input offset (int8 -> int16)
                    col_src = sub(m, im2col_buf, rhs_cols)
                    mov(m, im2col_buf_start_s16)
                    mov(m, rhs_cols)
                    mov(m, input_offset)
                    bl(m)
                    if m.dsp:
                        arm_s8_to_s16_unordered_with_offset(m, col_src, im2col_buf_start_s16,
                                                            rhs_cols, input_offset)
                    else:
                        arm_q7_to_q15_with_offset(m, col_src, im2col_buf_start_s16, rhs_cols,
                                                  input_offset)
                    im2col_buf_start_s16 = add(m, im2col_buf_start_s16, 2 * aligned_rhs_cols)
                    leave_region(outer, m)
                    m = outer
                    cmp(m, lhs_rows, 2)               # if (lhs_rows == 2)
                    bcc(m, lhs_rows != 2)
                    if lhs_rows == 2:
                        cmp(m, groups, 1)             # if (groups > 1)
                        bcc(m, groups <= 1)
                        for _ in range(8):
                            fitted_str_sp(m)          # the stacked arguments
                        for _ in range(4):
                            fitted_mov(m)          # r0-r3
                        bl(m)
                        if groups > 1:
                            fitted_str_sp(m)
                            out = arm_nn_mat_mult_kernel_row_offset_s8_s16(
                                m, filter_data_ptr, buffer_a, output_ch_per_group,
                                output_shift_ptr, output_mult_ptr, out_offset,
                                out_activation_min, out_activation_max, rhs_cols,
                                aligned_rhs_cols, bias_data_ptr, output_ch, out)
                            gemm = GEMM_ROW_OFFSET
                        else:
                            out = arm_nn_mat_mult_kernel_s8_s16(
                                m, filter_data_ptr, buffer_a, output_ch_per_group,
                                output_shift_ptr, output_mult_ptr, out_offset,
                                out_activation_min, out_activation_max, rhs_cols,
                                aligned_rhs_cols, bias_data_ptr, out)
                            gemm = GEMM_S8_S16
                        im2col_buf_start_s16 = mov(m, buffer_a)          # counter reset
                        im2col_buf = add(m, buffer_a, aligned_rhs_cols * 2)
                        lhs_rows = mov(m, 0)
                    i_out_x = add(m, i_out_x, 1)
                    fitted_ldr_sp(m)
                    b(m)
                    cmp(m, i_out_x, output_x)
                    bcc(m, i_out_x < output_x)
                i_out_y = add(m, i_out_y, 1)
                fitted_ldr_sp(m)
                cmp(m, i_out_y, output_y)
                bcc(m, i_out_y < output_y)
            cbz(m, out == 0)                          # if (out == NULL)
            # Handle left over columns
            cmp(m, lhs_rows, 0)                       # if (lhs_rows != 0)
            bcc(m, lhs_rows == 0)
            if lhs_rows != 0:
                ker_a = filter_data_ptr
                i = 0
                while i < output_ch_per_group:
                    total = mov(m, 0)                 # int32_t sum = 0;
                    cbz(m, bias_data_ptr == 0)        # if (bias_data_ptr) sum = bias_data_ptr[i];
                    if bias_data_ptr != 0:
                        total = ldr(m, bias_data_ptr + 4 * i)
                    ip_as_col = buffer_a
                    if m.dsp:
                        col_count = asr(m, rhs_cols, 2)  # uint16_t col_count = rhs_cols / 4;
                        cbz(m, col_count == 0)
                        while col_count:
                            ker_a, ker_a1, ker_a2 = read_and_pad_reordered(m, ker_a)
                            ip_b1 = ldr(m, ip_as_col)     # arm_nn_read_q15x2_ia(&ip_as_col)
                            total = smlad(m, ker_a1, ip_b1, total)
                            ip_b2 = ldr(m, ip_as_col + 4)
                            total = smlad(m, ker_a2, ip_b2, total)
                            ip_as_col += 8
                            col_count = sub(m, col_count, 1)
                            bcc(m, col_count != 0)
                        col_count = rhs_cols & 3      # col_count = rhs_cols & 0x3;
                        add(m, col_count, 0)
                        cbz(m, col_count == 0)
                    else:
                        col_count = rhs_cols          # uint16_t col_count = rhs_cols;
                        cbz(m, col_count == 0)
                    while col_count:
                        ker_a1 = ldrsb(m, ker_a)      # int8_t ker_a1 = *ker_a++;
                        ip_b1 = ldrsh(m, ip_as_col)   # int16_t ip_b1 = *ip_as_col++;
                        ker_a += 1
                        ip_as_col += 2
                        total = mla(m, ker_a1, ip_b1, total)  # sum += ker_a1 * ip_b1;
                        col_count = sub(m, col_count, 1)
                        bcc(m, col_count != 0)
                    fitted_ldr_sp(m)
                    total = arm_nn_requantize(m, total, ldr(m, output_mult_ptr + 4 * i),
                                              ldr(m, output_shift_ptr + 4 * i))
                    total = add(m, total, out_offset)  # sum += out_offset;
                    total = max_lt(m, total, out_activation_min)  # MAX(sum, out_activation_min)
                    total = min_gt(m, total, out_activation_max)  # MIN(sum, out_activation_max)
                    strb(m, out, total)               # *out++ = (int8_t)sum;
                    out += 1
                    i += 1
                    cmp(m, i, output_ch_per_group)
                    bcc(m, i < output_ch_per_group)
                im2col_buf_start_s16 = mov(m, buffer_a)
                im2col_buf = add(m, buffer_a, aligned_rhs_cols * 2)
                lhs_rows = mov(m, 0)
            filter_data_ptr = mla(m, output_ch_per_group, rhs_cols, filter_data_ptr)
            bias_data_ptr = add(m, bias_data_ptr, 4 * output_ch_per_group)
            output_mult_ptr = add(m, output_mult_ptr, 4 * output_ch_per_group)
            output_shift_ptr = add(m, output_shift_ptr, 4 * output_ch_per_group)
            i_group = add(m, i_group, 1)
            cmp(m, i_group, groups)
            bcc(m, i_group < groups)
        # Advance to the next batch
        input_data = mla(m, input_x * input_y, input_ch, input_data)
        output_data = mla(m, output_x * output_y, output_ch, output_data)
        i_batch = add(m, i_batch, 1)
        cmp(m, i_batch, input_batches)
        bcc(m, i_batch < input_batches)
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                      # add sp, #frame
    pop_pc(m, 9)
    return 0, gemm
