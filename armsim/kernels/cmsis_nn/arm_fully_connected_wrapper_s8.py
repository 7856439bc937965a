"""arm_fully_connected_wrapper_s8 (Source/FullyConnectedFunctions/arm_fully_connected_wrapper_s8.c).

    if (quant_params->is_per_channel)
        return arm_fully_connected_per_channel_s8(..., {quant_params->multiplier, quant_params->shift}, ...);
    else
        return arm_fully_connected_s8(..., {*quant_params->multiplier, *quant_params->shift}, ...);

`multiplier`/`shift` are the addresses of the arrays (per channel) or, per tensor, the
values themselves: there the caller's `cmsis_nn_quant_params` points at its own stack
locals, so the two dereferences are stack loads.

The wrapper's own instructions are one compiled kernel that returns which kernel it calls;
`call_fully_connected_wrapper_s8` (host side) then runs that kernel, so a model compiles only the
kernels it reaches, and the instructions and their order are those of the C.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import b, bcc, cmp, fitted_ldr_sp, fitted_str_sp, fitted_strd_sp, pop, push

from .arm_fully_connected_per_channel_s8 import arm_fully_connected_per_channel_s8
from .arm_fully_connected_s8 import arm_fully_connected_s8


@kernel
def arm_fully_connected_wrapper_s8(m, is_per_channel):
    """The wrapper's own instructions, up to its tail call of the per-channel or the
    per-tensor kernel (`call_fully_connected_wrapper_s8` then runs it)."""
    push(m, 5)                                        # push {r4-r7, lr}
    fitted_ldr_sp(m)                                  # quant_params->is_per_channel
    cmp(m, is_per_channel, 0)
    bcc(m, not is_per_channel)
    for _ in range(3):                                # forward the stacked arguments
        fitted_ldr_sp(m)
        fitted_str_sp(m)
    if is_per_channel:
        fitted_strd_sp(m)                             # {multiplier, shift} struct on the stack
    else:
        fitted_ldr_sp(m)                              # *quant_params->multiplier
        fitted_ldr_sp(m)                              # *quant_params->shift
        fitted_strd_sp(m)
    pop(m, 5)
    b(m)                                              # tail call


def call_fully_connected_wrapper_s8(m, is_per_channel, input_data, filter_data, bias_data,
                                    output_data, input_offset, filter_offset, output_offset,
                                    act_min, act_max, multiplier, shift, batch_cnt, accum_depth,
                                    output_depth, tracer=None):
    """Run arm_fully_connected_wrapper_s8 as the C does: its dispatch, then the kernel it
    tail-calls (each compiled on its own)."""
    run(arm_fully_connected_wrapper_s8, m, is_per_channel, tracer=tracer)
    kern = arm_fully_connected_per_channel_s8 if is_per_channel else arm_fully_connected_s8
    run(kern, m, input_data, filter_data, bias_data, output_data, input_offset, filter_offset,
        output_offset, act_min, act_max, multiplier, shift, batch_cnt, accum_depth,
        output_depth, tracer=tracer)
    return 0
