"""arm_softmax_s8 (Source/SoftmaxFunctions/arm_softmax_s8.c), non-MVE code.

    void arm_softmax_s8(const int8_t *input, const int32_t num_rows, const int32_t row_size,
        const int32_t mult, const int32_t shift, const int32_t diff_min, int8_t *output)
    {
        arm_nn_softmax_common_s8(input, num_rows, row_size, mult, shift, diff_min, false,
                                 (void *)output);
    }

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 / cortex-m3): the frame,
the three stacked arguments of the call (the M3 build moves two of them with one STRD).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import add, bl, ldr_sp, mov, pop_pc, push, str_sp, strd_sp, sub

from .arm_nn_softmax_common_s8 import arm_nn_softmax_common_s8

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel
def arm_softmax_s8(m, input, num_rows, row_size, mult, shift, diff_min, output):
    push(m, 2)                                     # push {r4, lr}
    sub(m, 0, 0)                                   # sub sp, #16
    ldr_sp(m)                                      # diff_min (stacked)
    if m.dsp:
        str_sp(m)
        ldr_sp(m)                                  # output (stacked)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)                                     # int16_output = false
        str_sp(m)
    else:
        ldr_sp(m)                                  # output (stacked)
        str_sp(m)
        mov(m, 0)                                     # int16_output = false
        str_sp(m)
        ldr_sp(m)
        strd_sp(m)
    bl(m)
    arm_nn_softmax_common_s8(m, input, num_rows, row_size, mult, shift, diff_min, False, output)
    add(m, 0, 0)                                   # add sp, #16
    pop_pc(m, 2)
