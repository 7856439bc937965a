"""arm_transpose_conv_wrapper_s8 (Source/ConvolutionFunctions/arm_transpose_conv_wrapper_s8.c), non-MVE.

    arm_cmsis_nn_status arm_transpose_conv_wrapper_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_context *reverse_conv_ctx,
        const cmsis_nn_transpose_conv_params *transpose_conv_params,
        const cmsis_nn_per_channel_quant_params *quant_params, ...)

Both strides <= 2 and more than REVERSE_TCOL_EFFICIENT_THRESHOLD (16) input channels: the
"reverse" path -- the filter reversed in x and y into reverse_conv_ctx->buf (one newlib
`memcpy` of input_c bytes per tap), then arm_convolve_s8 on the stride-upscaled input
(upscale_dims {0, stride_h, stride_w, 0}) with padding filter - 1 - padding and stride 1.
Otherwise a tail call of arm_transpose_conv_s8.

The reversal loop's bookkeeping around the memcpy calls is fitted to ../shared/reference
tconv_s8_3x3x24_o8_k3_s2 (function `arm_transpose_conv_wrapper_s8`: dsp_O2 1,274,
scalar_O2 1,276 instructions for 72 taps); the tail-call path to tconv_s8_6x6x8_o8_k3_s2
(38 / 43).  Not read off a disassembly.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, bl, cbz, cmp, fitted_add, fitted_ldr_sp, fitted_mov,
                            fitted_str_sp, fitted_sub, mov, mul, pop_pc, push, sub)
from armsim.kernels.libc import memcpy

from .arm_convolve_s8 import arm_convolve_s8
from .arm_nn_types import Activation, Context, ConvParams, Dims, PerChannelQuantParams, Tile
from .arm_transpose_conv_s8 import arm_transpose_conv_s8

ARG_ERROR = -1
REVERSE_TCOL_EFFICIENT_THRESHOLD = 16       # Include/arm_nnsupportfunctions.h
# which kernel the wrapper called
LEAF_TRANSPOSE_CONV = 1
LEAF_CONVOLVE = 2


@kernel(inline=True)
def uses_reverse_conv(stride_w, stride_h, input_c):
    """reverse_conv_possible && reverse_conv_efficient (also the buffer-size functions' test)."""
    return stride_w <= 2 and stride_h <= 2 and input_c > REVERSE_TCOL_EFFICIENT_THRESHOLD


@kernel
def arm_transpose_conv_wrapper_s8(m, buf, reverse_buf, input_batches, input_x, input_y,
                                  input_ch, filter_x, filter_y, output_x, output_y, output_ch,
                                  pad_x, pad_y, stride_x, stride_y, out_offset, input_offset,
                                  activation_min, activation_max, input_data, filter_data,
                                  bias_data, output_multiplier, output_shift, output_data):
    """Returns (status, leaf, gemm): leaf LEAF_*, gemm arm_convolve_s8's GEMM code."""
    push(m, 9)                                        # push {r4-r11, lr}
    fitted_sub(m)
    fitted_ldr_sp(m)                                  # ctx->buf
    cbz(m, buf == 0)                                  # if (ctx->buf == NULL)
    if buf == 0:
        mov(m, ARG_ERROR)
        fitted_add(m)
        pop_pc(m, 9)
        return ARG_ERROR, 0, 0
    fitted_ldr_sp(m)                                  # transpose_conv_params->stride.w
    cmp(m, stride_x, 2)
    bcc(m, stride_x > 2)
    possible = stride_x <= 2
    if possible:
        fitted_ldr_sp(m)                              # stride.h
        cmp(m, stride_y, 2)
        bcc(m, stride_y > 2)
        possible = stride_y <= 2
    if possible:
        fitted_ldr_sp(m)                              # input_dims->c
        cmp(m, input_ch, REVERSE_TCOL_EFFICIENT_THRESHOLD)
        bcc(m, input_ch <= REVERSE_TCOL_EFFICIENT_THRESHOLD)
    if not uses_reverse_conv(stride_x, stride_y, input_ch):
        for _ in range(11):
            fitted_ldr_sp(m)                          # the stacked arguments passed on ...
            fitted_str_sp(m)
        add(m, 0, 0)                                  # add sp, #frame
        b(m)                                          # ... to the tail call
        status = arm_transpose_conv_s8(m, buf, input_batches, input_x, input_y, input_ch,
                                       filter_x, filter_y, output_x, output_y, output_ch,
                                       pad_x, pad_y, stride_x, stride_y, out_offset,
                                       input_offset, activation_min, activation_max,
                                       input_data, filter_data, bias_data, output_multiplier,
                                       output_shift, output_data)
        return status, LEAF_TRANSPOSE_CONV, 0
    fitted_ldr_sp(m)                                  # reverse_conv_ctx->buf
    cbz(m, reverse_buf == 0)
    if reverse_buf == 0:
        mov(m, ARG_ERROR)
        fitted_add(m)
        pop_pc(m, 9)
        return ARG_ERROR, 0, 0
    for _ in range(12):
        fitted_ldr_sp(m)                              # the dims and params fields
    for _ in range(10):
        fitted_str_sp(m)                              # conv_params, transposed_input_dims, upscale_dims
    conv_pad_y = sub(m, sub(m, filter_y, 1), pad_y)   # conv_params.padding.h = filter_h - 1 - padding_h;
    conv_pad_x = sub(m, sub(m, filter_x, 1), pad_x)   # conv_params.padding.w = filter_w - 1 - padding_w;
    up_y = mul(m, input_y, stride_y)                  # input_h * stride_h
    up_x = mul(m, input_x, stride_x)                  # input_w * stride_w
    tap = input_ch
    filter_size = mul(m, mul(m, filter_y, filter_x), input_ch)  # filter_h * filter_w * input_c
    in_ptr = filter_data
    out_ptr = add(m, reverse_buf, filter_size)        # out_ptr += filter_size;
    cmp(m, output_ch, 0)
    bcc(m, output_ch <= 0)
    for i in range(output_ch):
        cmp(m, filter_y, 0)
        bcc(m, filter_y <= 0)
        for y in range(filter_y):
            cmp(m, filter_x, 0)
            bcc(m, filter_x <= 0)
            for x in range(filter_x):
                out_ptr = sub(m, out_ptr, tap)        # out_ptr -= input_c;
                mov(m, out_ptr)
                mov(m, in_ptr)
                mov(m, tap)
                bl(m)
                memcpy(m, out_ptr, in_ptr, tap)       # arm_memcpy_s8(out_ptr, in_ptr, input_c)
                in_ptr = add(m, in_ptr, tap)          # in_ptr += input_c;
                fitted_ldr_sp(m)
                fitted_ldr_sp(m)
                fitted_ldr_sp(m)
                fitted_mov(m)
                fitted_add(m)
                add(m, x, 1)
                cmp(m, x + 1, filter_x)
                bcc(m, x + 1 < filter_x)
            fitted_ldr_sp(m)
            add(m, y, 1)
            cmp(m, y + 1, filter_y)
            bcc(m, y + 1 < filter_y)
        out_ptr = add(m, out_ptr, 2 * filter_size)    # out_ptr += 2 * filter_size;
        add(m, i, 1)
        cmp(m, i + 1, output_ch)
        bcc(m, i + 1 < output_ch)
    for _ in range(9):
        fitted_str_sp(m)                              # arm_convolve_s8's stacked arguments
    for _ in range(4):
        fitted_mov(m)
    bl(m)
    # arm_convolve_s8(reverse_conv_ctx, &conv_params, quant_params, &transposed_input_dims,
    #                 input_data, filter_dims, reverse_buf, bias_dims, bias_data,
    #                 &upscale_dims, output_dims, output_data)
    conv_params = ConvParams(input_offset, out_offset, Tile(1, 1), Tile(conv_pad_x, conv_pad_y),
                             Tile(1, 1), Activation(activation_min, activation_max))
    status, gemm = arm_convolve_s8(m, Context(buf, 0), conv_params,
                                   PerChannelQuantParams(output_multiplier, output_shift),
                                   Dims(input_batches, up_y, up_x, input_ch), input_data,
                                   Dims(output_ch, filter_y, filter_x, input_ch), reverse_buf,
                                   bias_data, Dims(0, stride_y, stride_x, 0),
                                   Dims(input_batches, output_y, output_x, output_ch),
                                   output_data)
    fitted_add(m)
    pop_pc(m, 9)
    return status, LEAF_CONVOLVE, gemm
