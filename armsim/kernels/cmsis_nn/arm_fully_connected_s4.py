"""arm_fully_connected_s4 (Source/FullyConnectedFunctions/arm_fully_connected_s4.c), non-MVE.

    arm_cmsis_nn_status arm_fully_connected_s4(const cmsis_nn_context *ctx,
        const cmsis_nn_fc_params *fc_params,
        const cmsis_nn_per_tensor_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int8_t *input,
        const cmsis_nn_dims *filter_dims, const int8_t *kernel,
        const cmsis_nn_dims *bias_dims, const int32_t *bias,
        const cmsis_nn_dims *output_dims, int8_t *output)

    while (batch_cnt) {
        arm_nn_vec_mat_mult_t_s4(input, kernel, bias, output, fc_params->input_offset,
                                 fc_params->output_offset, quant_params->multiplier,
                                 quant_params->shift, filter_dims->n, output_dims->c,
                                 fc_params->activation.min, fc_params->activation.max);
        input += filter_dims->n; output += output_dims->c; batch_cnt--;
    }

Packed int4 weights, per-tensor quantization; the filter offset is ignored (int4 weights are
symmetric).  The struct fields are loads from the caller's stack (`ldr_sp`, `ldrd_sp` for
activation.min / max); read off the measured objects' disassembly (gcc 12.2 -O2, Cortex-M4 /
M3, which differ only in the order of the stacked-argument stores); no fitted line.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cbz, ldr_sp, ldrd_sp, mov, pop_pc, push, str_sp,
                            strd_sp, sub)

from .arm_nn_vec_mat_mult_t_s4 import arm_nn_vec_mat_mult_t_s4

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel
def arm_fully_connected_s4(m, ctx, fc_params, quant_params, input_dims, input, filter_dims,
                           kernel_, bias_dims, bias, output_dims, output):
    """`quant_params`: a PerTensorQuantParams.  Returns ARM_CMSIS_NN_SUCCESS (0)."""
    batch_cnt = input_dims.n
    push(m, 9)                                        # push {r4-r11, lr}
    ldr_sp(m)                                         # batch_cnt = input_dims->n
    sub(m, 0, 0)                                      # sub sp, #36
    ldrd_sp(m)                                        # input, filter_dims
    ldrd_sp(m)                                        # output_dims, output
    cbz(m, batch_cnt == 0)                            # while (batch_cnt)
    if batch_cnt:
        for _ in range(3):
            mov(m, 0)
        ldr_sp(m)                                     # output_dims->c
        ldr_sp(m)                                     # filter_dims->n
        ldr_sp(m)                                     # output
    while batch_cnt:
        ldrd_sp(m)                                    # fc_params->activation.min, .max
        str_sp(m)
        ldr_sp(m)                                     # quant_params->shift
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                     # quant_params->multiplier
        ldr_sp(m)                                     # fc_params->output_offset
        if m.dsp:
            str_sp(m)
            str_sp(m)
            ldr_sp(m)                                 # fc_params->input_offset
            str_sp(m)
            strd_sp(m)
            mov(m, output)
            ldr_sp(m)                                 # kernel
            mov(m, input)
            mov(m, bias)
        else:
            str_sp(m)
            str_sp(m)
            ldr_sp(m)                                 # fc_params->input_offset
            mov(m, output)
            strd_sp(m)
            str_sp(m)
            mov(m, input)
            mov(m, bias)
            ldr_sp(m)                                 # kernel
        bl(m)
        arm_nn_vec_mat_mult_t_s4(m, input, kernel_, bias, output, fc_params.input_offset,
                                 fc_params.output_offset, quant_params.multiplier,
                                 quant_params.shift, filter_dims.n, output_dims.c,
                                 fc_params.activation.min, fc_params.activation.max)
        ldr_sp(m)                                     # filter_dims->n
        ldr_sp(m)                                     # output_dims->c
        batch_cnt = sub(m, batch_cnt, 1)              # batch_cnt--;  (SUBS)
        input = add(m, input, filter_dims.n)          # input += filter_dims->n;
        output = add(m, output, output_dims.c)        # output += output_dims->c;
        bcc(m, batch_cnt != 0)
    mov(m, 0)                                         # return (ARM_CMSIS_NN_SUCCESS);
    add(m, 0, 0)                                      # add sp, #36
    pop_pc(m, 9)
    return 0
