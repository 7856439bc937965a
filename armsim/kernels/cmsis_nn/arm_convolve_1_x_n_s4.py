"""arm_convolve_1_x_n_s4 (Source/ConvolutionFunctions/arm_convolve_1_x_n_s4.c), non-MVE build:
the argument checks, then arm_convolve_s4 (the MVE-only arm_nn_mat_mul_core_1x_s4 /
arm_nn_mat_mult_nt_t_s4 split is not compiled).

    if ((input_dims->h != 1) || conv_params->dilation.w != 1 ||
        (buffer_size != 0 && ctx->buf == NULL) || conv_params->stride.w == 0 ||
        (conv_params->stride.w * input_dims->c % 4 != 0))
        return ARM_CMSIS_NN_ARG_ERROR;

buffer_size is arm_convolve_s4_get_buffer_size (2 * rhs_cols int16 values; never 0 for a
real filter), inlined by gcc as a multiply.  Counts are the C's operations (no fitted ops).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import and_, bcc, bl, cbz, cmp, mov, mul, pop_pc, push

from .arm_convolve_s4 import ARG_ERROR, arm_convolve_s4


@kernel
def arm_convolve_1_x_n_s4(m, ctx, conv_params, quant_params, input_dims, input_data,
                          filter_dims, filter_data, bias_data, output_dims, output_data):
    """Returns the status (0 or ARG_ERROR)."""
    push(m, 5)
    buffer_size = mul(m, mul(m, mul(m, filter_dims.w, filter_dims.h), input_dims.c), 4)
    stride_x = conv_params.stride.w
    cmp(m, input_dims.h, 1)
    bad = input_dims.h != 1
    bcc(m, bad)
    if not bad:
        cmp(m, conv_params.dilation.w, 1)
        bad = conv_params.dilation.w != 1
        bcc(m, bad)
    if not bad:
        cbz(m, buffer_size == 0)
        if buffer_size != 0:
            cbz(m, ctx.buf == 0)
            bad = ctx.buf == 0
    if not bad:
        cbz(m, stride_x == 0)
        bad = stride_x == 0
    if not bad:
        rem = and_(m, mul(m, stride_x, input_dims.c), 3)   # stride.w * input_dims->c % 4
        cmp(m, rem, 0)
        bad = rem != 0
        bcc(m, bad)
    if bad:
        mov(m, ARG_ERROR)
        pop_pc(m, 5)
        return ARG_ERROR
    bl(m)
    status = arm_convolve_s4(m, ctx, conv_params, quant_params, input_dims, input_data,
                             filter_dims, filter_data, bias_data, output_dims, output_data)
    pop_pc(m, 5)
    return status
