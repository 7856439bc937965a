"""arm_transpose_conv_s8 (Source/ConvolutionFunctions/arm_transpose_conv_s8.c), non-MVE.

    arm_cmsis_nn_status arm_transpose_conv_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_context *output_ctx,
        const cmsis_nn_transpose_conv_params *transpose_conv_params,
        const cmsis_nn_per_channel_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int8_t *input_data,
        const cmsis_nn_dims *filter_dims, const int8_t *filter_data,
        const cmsis_nn_dims *bias_dims, const int32_t *bias_data,
        const cmsis_nn_dims *output_dims, int8_t *output_data)

A scatter transposed convolution through an int32 rolling buffer of
MAX(filter_y, stride_y) rows of `buf_x_elements * output_ch` accumulators (ctx->buf):
the buffer starts as the bias (one newlib `memcpy` of output_ch words per element) or
zero (one `memset`); each input row is scattered into it by
arm_nn_transpose_conv_row_s8_s32; the rows no later input row can reach are then
requantized (arm_nn_requantize, + out_offset, clamp) into the output and reset; after the
last input row the filter_y - stride_y leftover rows are written.  `rows_to_flush` is the
CMSIS-NN issue #230 fix present in this commit (partial flush while pad_y is not yet
consumed).

The requantize/clamp/store per output and the libc calls are the C's.  The loop
bookkeeping and stack traffic around them are fitted to the measured per-function counts of
../shared/reference tconv_s8_6x6x8_o8_k3_s2 (dsp_O2 43,325, scalar_O2 43,328 instructions
in this function), not read off a disassembly.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cbz, cmp, fitted_add, fitted_ldr_sp, fitted_mov,
                            fitted_str_sp, ldr, mla, mls, mov, mul, pop_pc, push, sdiv, strb, sub)
from armsim.kernels.libc import memcpy, memset
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize import arm_nn_requantize
from .arm_nn_transpose_conv_row_s8_s32 import arm_nn_transpose_conv_row_s8_s32


@kernel(inline=True)
def _reset_row(m, buf, buf_row, buf_x, buf_x_elements, output_ch, bias_data):
    """Reset one buffer row to the bias (per element) or to zero."""
    cbz(m, bias_data == 0)                                # if (bias_data)
    if bias_data != 0:
        row = buf + 4 * buf_row
        cmp(m, buf_x_elements, 0)
        bcc(m, buf_x_elements <= 0)
        for x in range(buf_x_elements):
            # arm_memcpy_s8(buf + buf_row + x * output_ch, bias_data, output_ch * sizeof(int32_t))
            dst = add(m, row, 4 * output_ch * x)          # stepped
            mov(m, bias_data)
            mov(m, 4 * output_ch)
            bl(m)
            memcpy(m, dst, bias_data, 4 * output_ch)
            fitted_ldr_sp(m)
            add(m, x, 1)
            cmp(m, x + 1, buf_x_elements)
            bcc(m, x + 1 < buf_x_elements)
    else:
        # arm_memset_s8(buf + buf_row, 0, buf_x * sizeof(int32_t))
        fitted_mov(m)
        mov(m, 4 * buf_x)
        bl(m)
        memset(m, buf + 4 * buf_row, 0, 4 * buf_x)


@kernel(inline=True)
def _write_row(m, buf_out, output, output_x, output_ch, output_multiplier, output_shift,
               out_offset, activation_min, activation_max):
    """Requantize one buffer row's output_x * output_ch accumulators into the output;
    returns the advanced output pointer."""
    cmp(m, output_x, 0)
    bcc(m, output_x <= 0)
    for _ in range(output_x):
        fitted_ldr_sp(m)                                  # output_multiplier, output_shift
        fitted_ldr_sp(m)
        mult_ptr = output_multiplier
        shift_ptr = output_shift
        cmp(m, output_ch, 0)
        bcc(m, output_ch <= 0)
        for z in range(output_ch):
            result = ldr(m, buf_out)                      # int32_t result = *buf_out++;
            buf_out += 4
            multiplier = ldr(m, mult_ptr)                 # *output_multiplier_ptr++
            shift = ldr(m, shift_ptr)                     # *output_shift_ptr++
            mult_ptr += 4
            shift_ptr += 4
            result = arm_nn_requantize(m, result, multiplier, shift)
            result = add(m, result, out_offset)           # result += out_offset;
            result = max_lt(m, result, activation_min)    # MAX(result, activation_min)
            result = min_gt(m, result, activation_max)    # MIN(result, activation_max)
            strb(m, output, result)                       # *output++ = result;
            output += 1
            fitted_ldr_sp(m)                              # out_offset / activation reloads
            fitted_add(m)
            cmp(m, z + 1, output_ch)
            bcc(m, z + 1 < output_ch)
        fitted_ldr_sp(m)
        fitted_ldr_sp(m)
        fitted_str_sp(m)
        fitted_mov(m)
        cmp(m, 0, 0)
        bcc(m, True)
    return output


@kernel
def arm_transpose_conv_s8(m, buf, input_batches, input_x, input_y, input_ch, filter_x,
                          filter_y, output_x, output_y, output_ch, pad_x, pad_y, stride_x,
                          stride_y, out_offset, input_offset, activation_min, activation_max,
                          input_data, filter_data, bias_data, output_multiplier, output_shift,
                          output_data):
    push(m, 9)                                            # push {r4-r11, lr}
    sub(m, 0, 0)                                          # sub sp, #frame
    for _ in range(18):
        fitted_ldr_sp(m)                                  # the struct fields
    # buf_x_elements = ((input_x - 1) * stride_x + MAX(filter_x, stride_x));
    wider = max_lt(m, filter_x, stride_x)
    buf_x_elements = mla(m, sub(m, input_x, 1), stride_x, wider)
    buf_x = mul(m, buf_x_elements, output_ch)             # buf_x = buf_x_elements * output_ch;
    buf_y = max_lt(m, filter_y, stride_y)                 # buf_y = MAX(filter_y, stride_y);
    buf_size = mul(m, buf_y, buf_x)                       # buf_size = buf_y * buf_x;
    for _ in range(10):
        fitted_str_sp(m)                                  # locals spilled for the loops
    batch_cnt = input_batches
    inp = input_data
    output = output_data
    cbz(m, batch_cnt == 0)                                # while (batch_cnt)
    while batch_cnt:
        # Reset buf
        cbz(m, bias_data == 0)
        if bias_data != 0:
            for r in range(buf_y):                        # for (x < buf_x_elements * buf_y)
                _reset_row(m, buf, r * buf_x, buf_x, buf_x_elements, output_ch, bias_data)
        else:
            fitted_mov(m)
            mov(m, 4 * buf_size)
            bl(m)
            memset(m, buf, 0, 4 * buf_size)               # arm_memset_s8(buf, 0, buf_size * 4)
        buf_row = mov(m, 0)                               # int32_t buf_row = 0;
        cmp(m, input_y, 0)
        bcc(m, input_y <= 0)
        for j in range(input_y):
            # skip_rows_top = MAX(0, pad_y - j * stride_y);
            skip_rows_top = max_lt(m, sub(m, pad_y, j * stride_y), 0)
            # skip_rows_bottom = MAX(0, (j * stride_y + filter_y) - (pad_y + output_y) - 1);
            below = sub(m, sub(m, add(m, j * stride_y, filter_y), pad_y + output_y), 1)
            skip_rows_bottom = max_lt(m, below, 0)
            for _ in range(9):
                fitted_ldr_sp(m)                          # the row call's stacked arguments ...
                fitted_str_sp(m)
            for _ in range(4):
                fitted_mov(m)                          # ... and r0-r3
            bl(m)
            arm_nn_transpose_conv_row_s8_s32(m, inp, filter_data, buf, buf_row, buf_size,
                                             filter_y, filter_x, input_ch, output_ch,
                                             input_offset, buf_x, input_x, stride_x,
                                             skip_rows_top, skip_rows_bottom)
            inp = mla(m, input_ch, input_x, inp)          # input += input_ch * input_x;
            # rows_to_flush = MAX(0, (j + 1) * stride_y - pad_y) - MAX(0, j * stride_y - pad_y);
            after = max_lt(m, sub(m, (j + 1) * stride_y, pad_y), 0)
            before = max_lt(m, sub(m, j * stride_y, pad_y), 0)
            rows_to_flush = sub(m, after, before)
            fitted_ldr_sp(m)
            cmp(m, rows_to_flush, 0)
            bcc(m, rows_to_flush <= 0)
            for _ in range(rows_to_flush):
                fitted_ldr_sp(m)
                fitted_ldr_sp(m)
                buf_out = add(m, buf + 4 * buf_row, 4 * output_ch * pad_x)  # buf + buf_row + output_ch * pad_x
                output = _write_row(m, buf_out, output, output_x, output_ch, output_multiplier,
                                    output_shift, out_offset, activation_min, activation_max)
                # Reset the buffer which was just written
                _reset_row(m, buf, buf_row, buf_x, buf_x_elements, output_ch, bias_data)
                # buf_row = (buf_row + buf_x) % buf_size;
                buf_row = add(m, buf_row, buf_x)
                quotient = sdiv(m, buf_row, buf_size)
                buf_row = mls(m, quotient, buf_size, buf_row)
                fitted_ldr_sp(m)
                cmp(m, 0, 0)
                bcc(m, True)
            fitted_ldr_sp(m)
            cmp(m, j + 1, input_y)
            bcc(m, j + 1 < input_y)
        # Write leftover rows
        leftover = sub(m, filter_y, stride_y)
        cmp(m, leftover, 0)
        bcc(m, leftover <= 0)
        for y in range(leftover):
            row = input_y * stride_y + y
            fitted_ldr_sp(m)
            cmp(m, row, pad_y)                            # input_y * stride_y + y >= pad_y
            bcc(m, row < pad_y)
            if row >= pad_y:
                cmp(m, row, pad_y + output_y)             # ... < pad_y + output_y
                bcc(m, row >= pad_y + output_y)
                if row < pad_y + output_y:
                    buf_out = add(m, buf + 4 * buf_row, 4 * output_ch * pad_x)
                    output = _write_row(m, buf_out, output, output_x, output_ch,
                                        output_multiplier, output_shift, out_offset,
                                        activation_min, activation_max)
            buf_row = add(m, buf_row, buf_x)
            quotient = sdiv(m, buf_row, buf_size)
            buf_row = mls(m, quotient, buf_size, buf_row)
            cmp(m, y + 1, leftover)
            bcc(m, y + 1 < leftover)
        batch_cnt = sub(m, batch_cnt, 1)                  # batch_cnt--;
        bcc(m, batch_cnt != 0)
    mov(m, 0)                                             # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0
