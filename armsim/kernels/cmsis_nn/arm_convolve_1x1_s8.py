"""arm_convolve_1x1_s8 (Source/ConvolutionFunctions/arm_convolve_1x1_s8.c), non-MVE.

1x1 convolution with any stride and no padding: one arm_nn_mat_mult_nt_t_s8 call per output
row (lhs rows = output_w, read every stride_w * input_c bytes along the input row).

Calibration (../shared/reference conv1x1_s2_8x8x16_o16): 178 instructions in the function
itself for four rows (stores of the 11 stacked arguments per call).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cmp, fitted_add, fitted_ldr_sp, fitted_str_sp, mov, mul,
                            pop_pc, push, sub)

from .arm_nn_mat_mult_nt_t_s8 import arm_nn_mat_mult_nt_t_s8

ARG_ERROR = -1


@kernel
def arm_convolve_1x1_s8(m, ctx, conv_params, quant_params, input_dims, input_data,
                        filter_dims, filter_data, bias_data, output_dims, output_data):
    input_n = input_dims.n
    input_w = input_dims.w
    input_h = input_dims.h
    input_c = input_dims.c
    pad_w = conv_params.padding.w
    pad_h = conv_params.padding.h
    stride_w = conv_params.stride.w
    stride_h = conv_params.stride.h
    output_w = output_dims.w
    output_h = output_dims.h
    output_c = output_dims.c
    input_offset = conv_params.input_offset
    output_offset = conv_params.output_offset
    activation_min = conv_params.activation.min
    activation_max = conv_params.activation.max
    output_mult = quant_params.multiplier
    output_shift = quant_params.shift
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, #frame
    fitted_ldr_sp(m)
    fitted_ldr_sp(m)
    cmp(m, pad_w, 0)                                  # if (conv_params->padding.w != 0 || ...h != 0)
    bcc(m, pad_w != 0)
    if pad_w == 0:
        cmp(m, pad_h, 0)
        bcc(m, pad_h != 0)
    if pad_w != 0 or pad_h != 0:
        mov(m, ARG_ERROR)
        fitted_add(m)
        pop_pc(m, 9)
        return ARG_ERROR
    for _ in range(9):
        fitted_ldr_sp(m)                              # dims and conv_params fields
    lhs_rows = output_w                               # const int32_t lhs_rows = output_dims->w;
    rhs_rows = output_c                               # const int32_t rhs_rows = output_dims->c;
    rhs_cols = input_c                                # const int32_t rhs_cols = input_dims->c;
    input_inc = mul(m, mul(m, input_w, stride_h), rhs_cols)  # input_dims->w * stride.h * rhs_cols
    output_inc = mul(m, output_w, rhs_rows)           # output_dims->w * rhs_rows
    lhs_cols_offset = mul(m, rhs_cols, stride_w)      # rhs_cols * stride_w
    input_data_ref = input_data
    i_batch = 0
    cmp(m, input_n, 0)
    bcc(m, input_n <= 0)
    while i_batch < input_n:
        # input_data = input_data_ref + (i_batch * rhs_cols * input_dims->w * input_dims->h);
        input_data = add(m, input_data_ref, mul(m, mul(m, i_batch, rhs_cols), input_w * input_h))
        i_output_h = 0
        cmp(m, output_h, 0)
        bcc(m, output_h <= 0)
        while i_output_h < output_h:
            for _ in range(11):
                fitted_str_sp(m)                      # the 11 stacked arguments
            for _ in range(4):
                fitted_ldr_sp(m)                      # quant_params, conv_params fields
            mov(m, input_data)                        # r0-r3
            mov(m, filter_data)
            mov(m, bias_data)
            mov(m, output_data)
            bl(m)
            result = arm_nn_mat_mult_nt_t_s8(m, input_data, filter_data, bias_data, output_data,
                                             output_mult, output_shift, lhs_rows, rhs_rows,
                                             rhs_cols, input_offset, output_offset,
                                             activation_min, activation_max, rhs_rows,
                                             lhs_cols_offset)
            cmp(m, result, 0)                         # if (result != ARM_CMSIS_NN_SUCCESS)
            bcc(m, result != 0)
            if result != 0:
                fitted_add(m)
                pop_pc(m, 9)
                return result
            input_data = add(m, input_data, input_inc)    # input_data += input_inc;
            output_data = add(m, output_data, output_inc)  # output_data += output_inc;
            i_output_h = add(m, i_output_h, 1)
            cmp(m, i_output_h, output_h)
            bcc(m, i_output_h < output_h)
        i_batch = add(m, i_batch, 1)
        cmp(m, i_batch, input_n)
        bcc(m, i_batch < input_n)
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0
