"""arm_softmax_s8 (Source/SoftmaxFunctions/arm_softmax_s8.c), non-MVE code.

    void arm_softmax_s8(const int8_t *input, const int32_t num_rows, const int32_t row_size,
                        const int32_t mult, const int32_t shift, const int32_t diff_min,
                        int8_t *output)
    {
        arm_nn_softmax_common_s8(input, num_rows, row_size, mult, shift, diff_min, false,
                                 (void *)output);
    }

Measured: 13 (dsp_O2) / 12 (scalar_O2) instructions around the call (frame, moving the
seventh argument and pushing two stacked arguments).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bl, fitted_ldr_sp, fitted_ldrd_sp, fitted_str_sp, fitted_strd_sp,
                            mov, pop_pc, push, sub)

from .arm_nn_softmax_common_s8 import arm_nn_softmax_common_s8


@kernel
def arm_softmax_s8(m, input, num_rows, row_size, mult, shift, diff_min, output):
    push(m, 2)                                             # push {r4, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #16
    fitted_ldrd_sp(m)                                      # diff_min, output (stacked arguments)
    fitted_ldr_sp(m)
    mov(m, 0)                                              # int16_output = false
    if m.dsp:
        fitted_strd_sp(m)                                  # stacked arguments of the call
    else:
        fitted_str_sp(m)
        fitted_str_sp(m)
    fitted_str_sp(m)
    bl(m)
    arm_nn_softmax_common_s8(m, input, num_rows, row_size, mult, shift, diff_min, False,
                             output)
    add(m, 0, 0)                                           # add sp, sp, #16
    pop_pc(m, 2)
