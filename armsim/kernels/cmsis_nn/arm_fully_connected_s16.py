"""arm_fully_connected_s16 (Source/FullyConnectedFunctions/arm_fully_connected_s16.c), non-MVE.

    arm_cmsis_nn_status arm_fully_connected_s16(const cmsis_nn_context *ctx,
        const cmsis_nn_fc_params *fc_params,
        const cmsis_nn_per_tensor_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int16_t *input,
        const cmsis_nn_dims *filter_dims, const int8_t *kernel,
        const cmsis_nn_dims *bias_dims, const int64_t *bias,
        const cmsis_nn_dims *output_dims, int16_t *output)

    const int32_t reduced_multiplier = REDUCE_MULTIPLIER(quant_params->multiplier);
    while (batch_cnt) {
        arm_nn_vec_mat_mult_t_s16(input, kernel, bias, output, reduced_multiplier,
                                  quant_params->shift, filter_dims->n, output_dims->c,
                                  fc_params->activation.min, fc_params->activation.max);
        input += filter_dims->n; output += output_dims->c; batch_cnt--;
    }

The offsets are ignored (16x8 quantization is symmetric).  REDUCE_MULTIPLIER(m) is
(m < 0x7FFF0000) ? (m + (1 << 15)) >> 16 : 0x7FFF, compiled branch-free (two IT blocks).  The
struct fields are loads from the caller's stack (`ldr_sp`).  Read off the measured objects'
disassembly (gcc 12.2 -O2, Cortex-M4 / M3); no fitted line.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, bcc, bl, cbz, cmp, it, ldr_lit, ldr_sp, ldrd_sp, mov,
                            pop_pc, push, str_sp, strd_sp, sub)

from .arm_nn_vec_mat_mult_t_s16 import arm_nn_vec_mat_mult_t_s16

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


def arm_fully_connected_s16_get_buffer_size(filter_dims):
    """arm_fully_connected_get_buffer_sizes_s16.c: no scratch buffer (host side, as the
    measured firmware sized the context before the counted call)."""
    return 0


@kernel
def arm_fully_connected_s16(m, ctx, fc_params, quant_params, input_dims, input, filter_dims,
                            kernel_, bias_dims, bias, output_dims, output):
    """`quant_params`: a PerTensorQuantParams.  Returns ARM_CMSIS_NN_SUCCESS (0)."""
    batch_cnt = input_dims.n
    multiplier = quant_params.multiplier
    small = multiplier < 0x7FFF0000
    push(m, 9)                                        # push {r4-r11, lr}
    if m.dsp:
        ldr_sp(m)                                     # batch_cnt = input_dims->n
        ldr_sp(m)                                     # quant_params->multiplier
        mov(m, 0)
        ldr_lit(m)                                    # 0x7FFEFFFF
        cmp(m, multiplier, 0x7FFEFFFF)                # REDUCE_MULTIPLIER
        sub(m, 0, 0)                                  # sub sp, #28
        it(m, not small)                              # addle
        if small:
            rounded = add(m, multiplier, 1 << 15)
        ldrd_sp(m)                                    # input, filter_dims
        ldrd_sp(m)                                    # output_dims, output
        mov(m, 0)
        it(m, 1)                                      # ite le: one of the two runs
        if small:
            reduced = asr(m, rounded, 16)
        else:
            reduced = mov(m, 0x7FFF)
    else:
        ldr_sp(m)                                     # quant_params->multiplier
        ldr_lit(m)                                    # 0x7FFEFFFF
        ldr_sp(m)                                     # batch_cnt = input_dims->n
        cmp(m, multiplier, 0x7FFEFFFF)                # REDUCE_MULTIPLIER
        sub(m, 0, 0)
        it(m, not small)                              # addle
        if small:
            rounded = add(m, multiplier, 1 << 15)
        mov(m, 0)
        ldrd_sp(m)
        ldrd_sp(m)
        mov(m, 0)
        it(m, 1)                                      # ite gt: one of the two runs
        if small:
            reduced = asr(m, rounded, 16)
        else:
            reduced = mov(m, 0x7FFF)
    cbz(m, batch_cnt == 0)                            # while (batch_cnt)
    if batch_cnt:
        if m.dsp:
            str_sp(m)
            ldr_sp(m)                                 # output_dims->c
            ldr_sp(m)                                 # filter_dims->n
            mov(m, reduced)
            ldr_sp(m)                                 # output
            mov(m, 0)
        else:
            ldr_sp(m)                                 # output_dims->c
            str_sp(m)
            mov(m, 0)
            mov(m, reduced)
            ldr_sp(m)                                 # filter_dims->n
            ldr_sp(m)                                 # output
    while batch_cnt:
        if m.dsp:
            ldr_sp(m)                                 # fc_params->activation.max
            str_sp(m)
            ldr_sp(m)                                 # quant_params->shift
            str_sp(m)
            str_sp(m)
            ldr_sp(m)                                 # fc_params->activation.min
            str_sp(m)
            strd_sp(m)
            ldr_sp(m)                                 # kernel
            ldr_sp(m)                                 # bias
            mov(m, output)
            mov(m, input)
        else:
            ldr_sp(m)                                 # fc_params->activation.max
            str_sp(m)
            ldr_sp(m)                                 # quant_params->shift
            str_sp(m)
            str_sp(m)
            ldr_sp(m)                                 # fc_params->activation.min
            mov(m, output)
            mov(m, input)
            str_sp(m)
            str_sp(m)
            ldr_sp(m)                                 # bias
            ldr_sp(m)                                 # kernel
            str_sp(m)
        bl(m)
        arm_nn_vec_mat_mult_t_s16(m, input, kernel_, bias, output, reduced, quant_params.shift,
                                  filter_dims.n, output_dims.c, fc_params.activation.min,
                                  fc_params.activation.max)
        ldr_sp(m)                                     # filter_dims->n
        ldr_sp(m)                                     # output_dims->c
        batch_cnt = sub(m, batch_cnt, 1)              # batch_cnt--;  (SUBS)
        input = add(m, input, 2 * filter_dims.n)      # input += filter_dims->n;
        output = add(m, output, 2 * output_dims.c)    # output += output_dims->c;
        bcc(m, batch_cnt != 0)
    mov(m, 0)                                         # return (ARM_CMSIS_NN_SUCCESS);
    add(m, 0, 0)                                      # add sp, #28
    pop_pc(m, 9)
    return 0
