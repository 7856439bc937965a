"""arm_convolve_1_x_n_s8 (Source/ConvolutionFunctions/arm_convolve_1_x_n_s8.c), non-MVE build.

Without MVE the function is its argument check followed by arm_convolve_s8 (im2col +
arm_nn_mat_mult_kernel_s8_s16); the padded-row GEMM path is compiled for MVE only.

Calibration (../shared/reference conv1x3_1x32x8_o16_p1): 34 instructions in the function.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cbz, cmp, fitted_add, fitted_ldr_sp, fitted_str_sp, mov,
                            mul, pop_pc, push, sub)

from .arm_convolve_s8 import arm_convolve_s8

ARG_ERROR = -1


@kernel
def arm_convolve_1_x_n_s8(m, ctx, conv_params, quant_params, input_dims, input_data,
                          filter_dims, filter_data, bias_data, output_dims, output_data):
    """Returns (status, gemm) as arm_convolve_s8; gemm -1 when the check fails."""
    buf = ctx.buf
    input_y = input_dims.h
    input_ch = input_dims.c
    dilation_x = conv_params.dilation.w
    stride_x = conv_params.stride.w
    push(m, 5)                                        # push {r4-r7, lr}
    sub(m, 0, 0)                                      # sub sp, #frame
    # if ((input_dims->h != 1) || conv_params->dilation.w != 1 || ctx->buf == NULL ||
    #     conv_params->stride.w == 0 || (conv_params->stride.w * input_dims->c % 4 != 0))
    fitted_ldr_sp(m)
    cmp(m, input_y, 1)
    bcc(m, input_y != 1)
    bad = input_y != 1
    if not bad:
        fitted_ldr_sp(m)
        cmp(m, dilation_x, 1)
        bcc(m, dilation_x != 1)
        bad = dilation_x != 1
    if not bad:
        fitted_ldr_sp(m)
        cbz(m, buf == 0)
        bad = buf == 0
    if not bad:
        fitted_ldr_sp(m)
        cbz(m, stride_x == 0)
        bad = stride_x == 0
    if not bad:
        fitted_ldr_sp(m)
        t = mul(m, stride_x, input_ch)
        cmp(m, t & 3, 0)                              # (stride.w * input_dims->c) % 4 != 0  (TST #3)
        bcc(m, (t & 3) != 0)
        bad = (t & 3) != 0
    if bad:
        mov(m, ARG_ERROR)
        fitted_add(m)
        pop_pc(m, 5)
        return ARG_ERROR, -1
    for _ in range(8):
        fitted_ldr_sp(m)                              # the stacked arguments, passed on
        fitted_str_sp(m)
    mov(m, 0)                                         # upscale_dims = NULL
    bl(m)
    status, gemm = arm_convolve_s8(m, ctx, conv_params, quant_params, input_dims, input_data,
                                   filter_dims, filter_data, bias_data, output_dims,
                                   output_data)
    add(m, 0, 0)                                      # add sp, #frame
    pop_pc(m, 5)
    return status, gemm
