"""arm_softmax_s8_s16 (Source/SoftmaxFunctions/arm_softmax_s8_s16.c), non-MVE code.

    void arm_softmax_s8_s16(const int8_t *input, const int32_t num_rows,
                            const int32_t row_size, const int32_t mult, const int32_t shift,
                            const int32_t diff_min, int16_t *output)
    {
        arm_nn_softmax_common_s8(input, num_rows, row_size, mult, shift, diff_min, true,
                                 (void *)output);
    }

The same call frame as arm_softmax_s8 (int16_output = true instead of false).  Counts are
NOT calibrated: ../shared/reference has no int8 -> int16 softmax case; the frame is
arm_softmax_s8's measured one and the callee's int16 branch reuses the int8 branch's fits.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bl, fitted_ldr_sp, fitted_ldrd_sp, fitted_str_sp, fitted_strd_sp,
                            mov, pop_pc, push, sub)

from .arm_nn_softmax_common_s8 import arm_nn_softmax_common_s8


@kernel
def arm_softmax_s8_s16(m, input, num_rows, row_size, mult, shift, diff_min, output):
    push(m, 2)                                             # push {r4, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #16
    fitted_ldrd_sp(m)                                      # diff_min, output (stacked arguments)
    fitted_ldr_sp(m)
    mov(m, 1)                                              # int16_output = true
    if m.dsp:
        fitted_strd_sp(m)                                  # stacked arguments of the call
    else:
        fitted_str_sp(m)
        fitted_str_sp(m)
    fitted_str_sp(m)
    bl(m)
    arm_nn_softmax_common_s8(m, input, num_rows, row_size, mult, shift, diff_min, True, output)
    add(m, 0, 0)                                           # add sp, sp, #16
    pop_pc(m, 2)
