"""arm_fully_connected_wrapper_s8 (Source/FullyConnectedFunctions/arm_fully_connected_wrapper_s8.c).

    if (quant_params->is_per_channel)
        return arm_fully_connected_per_channel_s8(ctx, fc_params,
            &(cmsis_nn_per_channel_quant_params){quant_params->multiplier, quant_params->shift}, ...);
    else
        return arm_fully_connected_s8(ctx, fc_params,
            &(cmsis_nn_per_tensor_quant_params){*quant_params->multiplier, *quant_params->shift}, ...);

gcc builds the callee's quantization struct in its own frame and restacks the seven stacked
arguments, then calls (BL, not a tail call).  `quant_params` is a QuantParams: the addresses
of the multiplier and shift (one int32 each per tensor), which the per-tensor branch loads.

The wrapper's instructions before and after the call are two small compiled kernels;
`call_fully_connected_wrapper_s8` (host side) runs them around the kernel it calls, so a
model compiles only the kernels it reaches.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bl, cbz, ldr, ldr_sp, ldrd_sp, mov, pop_pc, push, str_sp, sub

from .arm_fully_connected_per_channel_s8 import arm_fully_connected_per_channel_s8
from .arm_fully_connected_s8 import arm_fully_connected_s8
from .arm_nn_types import PerChannelQuantParams, PerTensorQuantParams

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel
def arm_fully_connected_wrapper_s8(m, quant_params):
    """The wrapper's instructions up to its call; returns the per-tensor (multiplier, shift)
    it loaded (0, 0 per channel)."""
    push(m, 2)                                        # push {r4, lr}
    mov(m, 0)
    ldr_sp(m)                                         # quant_params->is_per_channel
    sub(m, 0, 0)                                      # sub sp, #40
    per_channel = quant_params.is_per_channel != 0
    cbz(m, not per_channel)
    multiplier = shift = 0
    if per_channel:
        for _ in range(7):                            # the stacked arguments
            ldr_sp(m)
            str_sp(m)
        if m.dsp:
            ldr_sp(m)                                 # quant_params->shift
            str_sp(m)
            add(m, 0, 0)                              # &per_channel_quant_params
        else:
            ldr_sp(m)
            add(m, 0, 0)
            str_sp(m)
        ldr_sp(m)                                     # quant_params->multiplier
        str_sp(m)
    else:
        ldrd_sp(m)                                    # quant_params->multiplier, ->shift
        multiplier = ldr(m, quant_params.multiplier)  # *quant_params->multiplier
        str_sp(m)
        shift = ldr(m, quant_params.shift)            # *quant_params->shift
        if m.dsp:
            for _ in range(5):                        # the stacked arguments ...
                ldr_sp(m)
                str_sp(m)
            str_sp(m)                                 # per_tensor_quant_params.shift
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            str_sp(m)
        else:
            ldr_sp(m)
            str_sp(m)                                 # per_tensor_quant_params.shift
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            str_sp(m)
            ldr_sp(m)
            add(m, 0, 0)                              # &per_tensor_quant_params
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            bl(m)
            return multiplier, shift
        add(m, 0, 0)                                  # &per_tensor_quant_params
    bl(m)
    return multiplier, shift


@kernel
def _wrapper_return(m):
    add(m, 0, 0)                                      # add sp, #40
    pop_pc(m, 2)                                      # pop {r4, pc}


def call_fully_connected_wrapper_s8(m, ctx, fc_params, quant_params, input_dims, input,
                                    filter_dims, kernel_, bias_dims, bias, output_dims, output,
                                    tracer=None):
    """Run arm_fully_connected_wrapper_s8 as the C does: its own instructions, the kernel
    it calls (each compiled on its own), its return."""
    multiplier, shift = run(arm_fully_connected_wrapper_s8, m, quant_params, tracer=tracer)
    if quant_params.is_per_channel:
        kern = arm_fully_connected_per_channel_s8
        params = PerChannelQuantParams(quant_params.multiplier, quant_params.shift)
    else:
        kern = arm_fully_connected_s8
        params = PerTensorQuantParams(multiplier, shift)
    status = run(kern, m, ctx, fc_params, params, input_dims, input, filter_dims, kernel_,
                 bias_dims, bias, output_dims, output, tracer=tracer)
    run(_wrapper_return, m, tracer=tracer)
    return status
