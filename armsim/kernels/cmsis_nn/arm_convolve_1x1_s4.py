"""arm_convolve_1x1_s4 (Source/ConvolutionFunctions/arm_convolve_1x1_s4.c), non-MVE.

1x1 convolution without padding, any stride: per batch and output row one
arm_nn_mat_mult_nt_t_s4 over the output_w pixels of the row (lhs_cols_offset =
input c * stride.w skips the strided-over pixels), stopping at a non-success status.

Counts: the C's operations; gcc -O2's argument marshalling for the 14-argument call (ten
stacked arguments reloaded and stored per call, objdump -mcpu=cortex-m4) is `fitted_*` (its
number read off the objdump, no measured case reaches this kernel).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cbz, cmp, fitted_ldr_sp, fitted_str_sp, mla, mov, mul,
                            pop_pc, push, sub)

from .arm_nn_mat_mult_nt_t_s4 import arm_nn_mat_mult_nt_t_s4

ARG_ERROR = -1
#: per call: the ten stacked arguments of arm_nn_mat_mult_nt_t_s4 (objdump: 10 STR, 5 LDR
#: from spill slots) and the two register arguments reloaded
CALL_RELOADS = 7
CALL_SPILLS = 10


@kernel
def arm_convolve_1x1_s4(m, ctx, conv_params, quant_params, input_dims, input_data,
                        filter_dims, filter_data, bias_data, output_dims, output_data):
    """Returns the status (0 or ARG_ERROR)."""
    push(m, 9)
    sub(m, 0, 76)
    fitted_ldr_sp(m)                                  # padding.w
    cmp(m, conv_params.padding.w, 0)
    bad = conv_params.padding.w != 0
    bcc(m, bad)
    if not bad:
        fitted_ldr_sp(m)                              # padding.h
        cmp(m, conv_params.padding.h, 0)
        bad = conv_params.padding.h != 0
        bcc(m, bad)
    if bad:
        mov(m, ARG_ERROR)
        add(m, 0, 76)
        pop_pc(m, 9)
        return ARG_ERROR
    lhs_rows = output_dims.w
    rhs_rows = output_dims.c
    rhs_cols = input_dims.c
    stride_w = conv_params.stride.w
    for _ in range(6):
        fitted_ldr_sp(m)                              # the dims fields
    input_inc = mul(m, mul(m, input_dims.w, conv_params.stride.h), rhs_cols)
    output_inc = mul(m, lhs_rows, rhs_rows)
    lhs_cols_offset = mul(m, rhs_cols, stride_w)
    batch_size = mul(m, mul(m, rhs_cols, input_dims.w), input_dims.h)
    cmp(m, input_dims.n, 0)
    bcc(m, input_dims.n <= 0)
    for i_batch in range(input_dims.n):
        row_input = mla(m, i_batch, batch_size, input_data)
        cmp(m, output_dims.h, 0)
        bcc(m, output_dims.h <= 0)
        for i_output_h in range(output_dims.h):
            for _ in range(CALL_RELOADS):
                fitted_ldr_sp(m)                      # fitted: argument marshalling
            for _ in range(CALL_SPILLS):
                fitted_str_sp(m)                      # fitted
            bl(m)
            result = arm_nn_mat_mult_nt_t_s4(
                m, row_input, filter_data, bias_data, output_data, quant_params.multiplier,
                quant_params.shift, lhs_rows, rhs_rows, rhs_cols, conv_params.input_offset,
                conv_params.output_offset, conv_params.activation.min,
                conv_params.activation.max, lhs_cols_offset)
            cbz(m, result == 0)
            if result != 0:
                add(m, 0, 76)
                pop_pc(m, 9)
                return result
            row_input = add(m, row_input, input_inc)
            output_data = add(m, output_data, output_inc)
            cmp(m, i_output_h + 1, output_dims.h)
            bcc(m, i_output_h + 1 < output_dims.h)
        cmp(m, i_batch + 1, input_dims.n)
        bcc(m, i_batch + 1 < input_dims.n)
    mov(m, 0)
    add(m, 0, 76)
    pop_pc(m, 9)
    return 0
