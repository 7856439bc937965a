"""arm_convolve_s4 (Source/ConvolutionFunctions/arm_convolve_s4.c), non-MVE build.

    arm_cmsis_nn_status arm_convolve_s4(const cmsis_nn_context *ctx,
        const cmsis_nn_conv_params *conv_params,
        const cmsis_nn_per_channel_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int8_t *input_data,
        const cmsis_nn_dims *filter_dims, const int8_t *packed_filter_data,
        const cmsis_nn_dims *bias_dims, const int32_t *bias_data,
        const cmsis_nn_dims *output_dims, int8_t *output_data)

im2col straight into int16: per filter tap, `memset` of 2 * input_ch zero bytes for a padding
tap, else arm_q7_to_q15_with_offset of the tap's input_ch values (both builds); every second
column arm_nn_mat_mult_kernel_s4_s16.  An odd last column is done inline, one output channel
at a time over the packed weights (rows start mid-byte when rhs_cols is odd: the
`spilled_ker_a` nibble).

Instruction bookkeeping: the C's loop tests, address arithmetic, calls, MACs and
requantize/clamp/store; gcc's stack traffic in this function is not modelled (no fitted ops).
Measured totals of the whole call: see arm_nn_mat_mult_kernel_s4_s16 (its GEMM dominates).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (IM2COL, add, asr, bcc, bl, cbz, cmp, enter_region, ldr, ldrsb, ldrsh,
                            leave_region, mla, mov, mul, pop_pc, push, sbfx, smlad, strb, sub)
from armsim.kernels.libc import memset
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_mat_mult_kernel_s4_s16 import arm_nn_mat_mult_kernel_s4_s16
from .arm_nn_requantize import arm_nn_requantize
from .arm_q7_to_q15_with_offset import arm_q7_to_q15_with_offset
from .read_and_pad_s4 import read_and_pad_s4_ordered

ARG_ERROR = -1


@kernel(inline=True)
def _last_column(m, buffer_a, packed_filter_data, bias_data, out, output_mult, output_shift,
                 output_ch, rhs_cols, out_offset, out_activation_min, out_activation_max):
    """The left-over column: each output channel against the int16 column in buffer_a."""
    ker_a_ptr = packed_filter_data
    spilled_ker_a = 0
    odd = rhs_cols & 1
    for i in range(output_ch):
        total = mov(m, 0)                             # int32_t sum = 0;
        cbz(m, bias_data == 0)
        if bias_data != 0:
            total = ldr(m, bias_data + 4 * i)         # sum = bias_data[i];
        ip_as_col = buffer_a
        spill_in = odd == 1 and (i & 1) == 1
        cmp(m, odd, 0)
        bcc(m, not spill_in)                          # if (rhs_cols % 2 && (i % 2))
        if spill_in:
            total = mla(m, spilled_ker_a, ldrsh(m, ip_as_col), total)
            ip_as_col += 2
        if m.dsp:
            col_count = asr(m, rhs_cols, 2)           # uint16_t col_count = rhs_cols / 4;
            cbz(m, col_count == 0)
            while col_count:
                ker_a1, ker_a2 = read_and_pad_s4_ordered(m, ker_a_ptr)
                ker_a_ptr += 2
                total = smlad(m, ker_a1, ldr(m, ip_as_col), total)
                total = smlad(m, ker_a2, ldr(m, ip_as_col + 4), total)
                ip_as_col += 8
                col_count = sub(m, col_count, 1)
                bcc(m, col_count != 0)
            col_count = (rhs_cols & 3) >> 1          # col_count = (rhs_cols & 0x3) >> 1;
            sbfx(m, rhs_cols, 1, 1)
        else:
            col_count = asr(m, rhs_cols, 1)           # uint16_t col_count = rhs_cols >> 1;
        cbz(m, col_count == 0)
        while col_count:
            byte = ldrsb(m, ker_a_ptr)
            ker_a0 = sbfx(m, byte, 0, 4)              # (int8_t)(*ker_a_ptr << 4) >> 4
            ker_a1 = asr(m, byte, 4)                  # *ker_a_ptr >> 4
            ker_a_ptr += 1
            total = mla(m, ker_a0, ldrsh(m, ip_as_col), total)
            total = mla(m, ker_a1, ldrsh(m, ip_as_col + 2), total)
            ip_as_col += 4
            col_count = sub(m, col_count, 1)
            bcc(m, col_count != 0)
        spill_out = odd == 1 and (i & 1) == 0
        cmp(m, odd, 0)
        bcc(m, not spill_out)                         # if (rhs_cols % 2 && !(i % 2))
        if spill_out:
            byte = ldrsb(m, ker_a_ptr)
            ker_a0 = sbfx(m, byte, 0, 4)
            spilled_ker_a = asr(m, byte, 4)           # spilled_ker_a = *ker_a_ptr >> 4;
            ker_a_ptr += 1
            total = mla(m, ker_a0, ldrsh(m, ip_as_col), total)
        total = arm_nn_requantize(m, total, ldr(m, output_mult + 4 * i),
                                  ldr(m, output_shift + 4 * i))
        total = add(m, total, out_offset)
        total = max_lt(m, total, out_activation_min)
        total = min_gt(m, total, out_activation_max)
        strb(m, out + i, total)                       # *out++ = (int8_t)sum;
        cmp(m, i + 1, output_ch)
        bcc(m, i + 1 < output_ch)


@kernel
def arm_convolve_s4(m, ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                    packed_filter_data, bias_data, output_dims, output_data):
    """Returns the status (0 or ARG_ERROR).  The structs are `arm_nn_types`' (bias_dims,
    unread by the C, is left out)."""
    buf = ctx.buf
    input_batches = input_dims.n
    input_x = input_dims.w
    input_y = input_dims.h
    input_ch = input_dims.c
    kernel_x = filter_dims.w
    kernel_y = filter_dims.h
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
    push(m, 9)
    cbz(m, buf == 0)                                  # if (ctx->buf == NULL)
    if buf == 0:
        mov(m, ARG_ERROR)
        pop_pc(m, 9)
        return ARG_ERROR
    buffer_a = buf
    rhs_cols = mul(m, mul(m, kernel_x, kernel_y), input_ch)  # kernel_x * kernel_y * input_ch
    for i_batch in range(input_batches):
        two_column_buf = buffer_a
        out = output_data
        lhs_rows = 0
        for i_out_y in range(output_y):
            base_idx_y = sub(m, mul(m, stride_y, i_out_y), pad_y)
            for i_out_x in range(output_x):
                base_idx_x = sub(m, mul(m, stride_x, i_out_x), pad_x)
                im = enter_region(m, IM2COL)
                for i_ker_y in range(kernel_y):
                    k_y = add(m, base_idx_y, dilation_y * i_ker_y)
                    for i_ker_x in range(kernel_x):
                        k_x = add(m, base_idx_x, dilation_x * i_ker_x)
                        # if (k_y < 0 || k_y >= input_y || k_x < 0 || k_x >= input_x)
                        cmp(im, k_y, 0)
                        bcc(im, k_y < 0)
                        pad = k_y < 0
                        if not pad:
                            cmp(im, k_y, input_y)
                            bcc(im, k_y >= input_y)
                            pad = k_y >= input_y
                        if not pad:
                            cmp(im, k_x, 0)
                            bcc(im, k_x < 0)
                            pad = k_x < 0
                        if not pad:
                            cmp(im, k_x, input_x)
                            bcc(im, k_x >= input_x)
                            pad = k_x >= input_x
                        if pad:
                            # memset(two_column_buf, 0, sizeof(int16_t) * input_ch);
                            mov(im, 0)
                            bl(im)
                            memset(im, two_column_buf, 0, 2 * input_ch)
                        else:
                            src = add(im, input_data, mul(im, add(im, mul(im, k_y, input_x), k_x),
                                                           input_ch))
                            bl(im)
                            arm_q7_to_q15_with_offset(im, src, two_column_buf, input_ch,
                                                      input_offset)
                        two_column_buf = add(im, two_column_buf, 2 * input_ch)
                        cmp(im, i_ker_x + 1, kernel_x)
                        bcc(im, i_ker_x + 1 < kernel_x)
                    cmp(im, i_ker_y + 1, kernel_y)
                    bcc(im, i_ker_y + 1 < kernel_y)
                leave_region(m, im)
                lhs_rows = add(m, lhs_rows, 1)        # lhs_rows++;
                cmp(m, lhs_rows, 2)
                bcc(m, lhs_rows != 2)                 # if (lhs_rows == 2)
                if lhs_rows == 2:
                    bl(m)
                    out = arm_nn_mat_mult_kernel_s4_s16(m, packed_filter_data, buffer_a,
                                                        output_ch, output_shift, output_mult,
                                                        out_offset, out_activation_min,
                                                        out_activation_max, rhs_cols,
                                                        bias_data, out)
                    two_column_buf = buffer_a
                    lhs_rows = 0
                cmp(m, i_out_x + 1, output_x)
                bcc(m, i_out_x + 1 < output_x)
            cbz(m, out == 0)                          # if (out == NULL)
            cmp(m, i_out_y + 1, output_y)
            bcc(m, i_out_y + 1 < output_y)
        cbz(m, lhs_rows == 0)                         # if (lhs_rows != 0)
        if lhs_rows != 0:
            _last_column(m, buffer_a, packed_filter_data, bias_data, out, output_mult,
                         output_shift, output_ch, rhs_cols, out_offset, out_activation_min,
                         out_activation_max)
        input_data = add(m, input_data, input_x * input_y * input_ch)
        output_data = add(m, output_data, output_x * output_y * output_ch)
        cmp(m, i_batch + 1, input_batches)
        bcc(m, i_batch + 1 < input_batches)
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    pop_pc(m, 9)
    return 0
