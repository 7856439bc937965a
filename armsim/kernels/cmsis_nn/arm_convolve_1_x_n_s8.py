"""arm_convolve_1_x_n_s8 (Source/ConvolutionFunctions/arm_convolve_1_x_n_s8.c), non-MVE build.

Without MVE the function is its argument check followed by arm_convolve_s8 (im2col +
arm_nn_mat_mult_kernel_s8_s16); the padded-row GEMM path is compiled for MVE only.

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 and -mcpu=cortex-m3 differ
only in where the SUB sp sits): the && chain of the check (input h, dilation.w, ctx->buf,
stride.w, (stride.w * input c) % 4 by ANDS #3), the eight stacked arguments passed on to
arm_convolve_s8 with upscale_dims = NULL (the ANDS result, 0), the BL.  Struct field loads
(LDR [rN, #imm] of the caller's structs, not placed in simulated memory) are `ldr_sp`.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, b, bcc, bl, cbz, cmp, ldr_sp, mov, mul, pop_pc, push,
                            str_sp, strd_sp, sub)

from .arm_convolve_s8 import arm_convolve_s8
from .arm_nn_types import NULL_DIMS

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1


@kernel
def arm_convolve_1_x_n_s8(m, ctx, conv_params, quant_params, input_dims, input_data,
                          filter_dims, filter_data, bias_data, output_dims, output_data):
    """Returns (status, gemm) as arm_convolve_s8; gemm -1 when the check fails."""
    push(m, 3)                                        # push {r4, r5, lr}
    # if ((input_dims->h != 1) || conv_params->dilation.w != 1 || ctx->buf == NULL ||
    #     conv_params->stride.w == 0 || (conv_params->stride.w * input_dims->c % 4 != 0))
    ldr_sp(m)                                         # input_dims->h
    if m.dsp:
        cmp(m, input_dims.h, 1)
        sub(m, 0, 0)                                  # sub sp, #36
    else:
        sub(m, 0, 0)
        cmp(m, input_dims.h, 1)
    bad = input_dims.h != 1
    bcc(m, bad)
    if not bad:
        ldr_sp(m)                                     # conv_params->dilation.w
        cmp(m, conv_params.dilation.w, 1)
        bad = conv_params.dilation.w != 1
        bcc(m, bad)
    if not bad:
        ldr_sp(m)                                     # ctx->buf
        mov(m, 0)
        bad = ctx.buf == 0
        cbz(m, bad)
    if not bad:
        ldr_sp(m)                                     # conv_params->stride.w
        bad = conv_params.stride.w == 0
        cbz(m, bad)
    if not bad:
        ldr_sp(m)                                     # input_dims->c
        t = and_(m, mul(m, input_dims.c, conv_params.stride.w), 3)  # ANDS r4, r4, #3
        bad = t != 0
        bcc(m, bad)
    if bad:
        mov(m, ARG_ERROR)                             # return ARM_CMSIS_NN_ARG_ERROR;
        b(m)
        add(m, 0, 0)                                  # add sp, #36
        pop_pc(m, 3)
        return ARG_ERROR, -1
    ldr_sp(m)                                         # the stacked arguments passed on
    str_sp(m)
    ldr_sp(m)
    strd_sp(m)                                        # upscale_dims = NULL, output_dims
    for _ in range(5):
        ldr_sp(m)
        str_sp(m)
    bl(m)
    status, gemm = arm_convolve_s8(m, ctx, conv_params, quant_params, input_dims, input_data,
                                   filter_dims, filter_data, bias_data, NULL_DIMS, output_dims,
                                   output_data)
    add(m, 0, 0)                                      # add sp, #36
    pop_pc(m, 3)
    return status, gemm
