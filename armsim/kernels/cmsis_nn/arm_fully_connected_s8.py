"""arm_fully_connected_s8 (Source/FullyConnectedFunctions/arm_fully_connected_s8.c), non-MVE.

    arm_cmsis_nn_status arm_fully_connected_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_fc_params *fc_params,
        const cmsis_nn_per_tensor_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int8_t *input,
        const cmsis_nn_dims *filter_dims, const int8_t *kernel,
        const cmsis_nn_dims *bias_dims, const int32_t *bias,
        const cmsis_nn_dims *output_dims, int8_t *output)

    while (batch_cnt) {
        arm_nn_vec_mat_mult_t_s8(input, kernel, kernel_sum, bias, output,
            fc_params->input_offset, fc_params->output_offset, quant_params->multiplier,
            quant_params->shift, filter_dims->n, output_dims->c, fc_params->activation.min,
            fc_params->activation.max, 1L, fc_params->filter_offset);
        input += filter_dims->n; output += output_dims->c; batch_cnt--;
    }

gcc reloads the struct fields and restacks the eleven stacked arguments for every call.
arm_fully_connected_per_channel_s8 compiles to the same instructions (it passes the
per-channel multiplier and shift pointers where this passes the values): `fc_batches` is
both.  The structs' fields are loads from the caller's stack (`ldr_sp`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import add, bcc, bl, cbz, ldr_sp, ldrd_sp, mov, pop_pc, push, str_sp, strd_sp, sub

from .arm_nn_vec_mat_mult_t_s8 import arm_nn_vec_mat_mult_t_s8

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def fc_head(m):
    """The frame and the loads before the batch loop (both builds, their orders)."""
    push(m, 9)                                        # push {r4-r11, lr}
    ldr_sp(m)                                         # batch_cnt = input_dims->n
    if m.dsp:
        ldr_sp(m)                                     # kernel_sum = ctx->buf
        sub(m, 0, 0)                                  # sub sp, #60
        ldrd_sp(m)                                    # output_dims, output
        ldr_sp(m)                                     # input
        ldr_sp(m)                                     # filter_dims
    else:
        sub(m, 0, 0)
        ldr_sp(m)                                     # kernel_sum = ctx->buf
        ldrd_sp(m)                                    # input, filter_dims
        ldrd_sp(m)                                    # output_dims, output


@kernel(inline=True)
def fc_loop_setup(m):
    """Before the first call: the loop invariants in registers (batch_cnt != 0)."""
    if m.dsp:
        mov(m, 0)
        ldr_sp(m)                                     # output_dims->c
        ldr_sp(m)                                     # filter_dims->n
        str_sp(m)                                     # kernel_sum
        mov(m, 0)
        mov(m, 1)                                     # address_offset 1L
    else:
        mov(m, 0)
        mov(m, 1)                                     # address_offset 1L
        mov(m, 0)
        ldr_sp(m)                                     # output_dims->c
        ldr_sp(m)                                     # filter_dims->n
        str_sp(m)                                     # kernel_sum


@kernel(inline=True)
def fc_call_setup(m):
    """Per call: the eleven stacked arguments and r0-r3, read from the structs again."""
    if m.dsp:
        str_sp(m)                                     # output_dims->c
        ldr_sp(m)                                     # quant_params->shift
        str_sp(m)
        str_sp(m)                                     # output
        str_sp(m)                                     # filter_dims->n
        str_sp(m)                                     # 1L
        ldr_sp(m)                                     # quant_params->multiplier
        ldr_sp(m)                                     # fc_params->output_offset
        strd_sp(m)
        ldr_sp(m)                                     # fc_params->input_offset
        str_sp(m)
        ldr_sp(m)                                     # fc_params->filter_offset
        str_sp(m)
        ldr_sp(m)                                     # fc_params->activation.max
        str_sp(m)
        ldr_sp(m)                                     # fc_params->activation.min
        ldr_sp(m)                                     # bias
        str_sp(m)
        mov(m, 0)                                     # input
        ldr_sp(m)                                     # kernel
        ldr_sp(m)                                     # kernel_sum
    else:
        str_sp(m)                                     # output_dims->c
        ldr_sp(m)                                     # quant_params->shift
        str_sp(m)                                     # filter_dims->n
        str_sp(m)                                     # output
        str_sp(m)                                     # 1L
        str_sp(m)
        ldr_sp(m)                                     # quant_params->multiplier
        ldr_sp(m)                                     # fc_params->output_offset
        mov(m, 0)                                     # input
        strd_sp(m)
        ldr_sp(m)                                     # fc_params->input_offset
        ldr_sp(m)                                     # bias
        str_sp(m)
        ldr_sp(m)                                     # fc_params->filter_offset
        ldr_sp(m)                                     # kernel
        str_sp(m)
        ldr_sp(m)                                     # fc_params->activation.max
        str_sp(m)
        ldr_sp(m)                                     # fc_params->activation.min
        str_sp(m)
        ldr_sp(m)                                     # kernel_sum


@kernel(inline=True)
def fc_next_batch(m, batch_cnt, input, output, accum_depth, output_depth):
    """input += filter_dims->n; output += output_dims->c; batch_cnt--; (fields reloaded)."""
    ldr_sp(m)                                         # filter_dims->n
    ldr_sp(m)                                         # output_dims->c
    batch_cnt = sub(m, batch_cnt, 1)                  # SUBS
    input = add(m, input, accum_depth)
    output = add(m, output, output_depth)
    bcc(m, batch_cnt != 0)
    return batch_cnt, input, output


@kernel(inline=True)
def fc_return(m):
    mov(m, 0)                                         # return (ARM_CMSIS_NN_SUCCESS);
    add(m, 0, 0)                                      # add sp, #60
    pop_pc(m, 9)


@kernel
def arm_fully_connected_s8(m, ctx, fc_params, quant_params, input_dims, input, filter_dims,
                           kernel_, bias_dims, bias, output_dims, output):
    """`quant_params`: a PerTensorQuantParams.  Returns ARM_CMSIS_NN_SUCCESS (0)."""
    batch_cnt = input_dims.n
    kernel_sum = ctx.buf
    fc_head(m)
    cbz(m, batch_cnt == 0)                            # while (batch_cnt)
    if batch_cnt:
        fc_loop_setup(m)
    while batch_cnt:
        fc_call_setup(m)
        bl(m)
        arm_nn_vec_mat_mult_t_s8(m, input, kernel_, kernel_sum, bias, output,
                                 fc_params.input_offset, fc_params.output_offset,
                                 quant_params.multiplier, quant_params.shift, filter_dims.n,
                                 output_dims.c, fc_params.activation.min,
                                 fc_params.activation.max, 1, fc_params.filter_offset)
        batch_cnt, input, output = fc_next_batch(m, batch_cnt, input, output, filter_dims.n,
                                                 output_dims.c)
    fc_return(m)
    return 0
