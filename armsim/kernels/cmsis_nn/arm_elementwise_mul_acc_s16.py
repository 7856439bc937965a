"""arm_elementwise_mul_acc_s16 (Source/BasicMathFunctions/arm_elementwise_mul_acc_s16.c), non-MVE:
as arm_elementwise_mul_s16, but the requantized product is added to the output in place
before the clamp:

    output[i] = clamp(output[i] + requantize(input_1[i] * input_2[i], out_mult, out_shift))

with the bounds out_activation_min / max when out_activation_max > 0, else the int16 range.
In the LSTM step it adds input_gate x cell_gate to the cell state (clamped to +-cell_clip).
The loops are arm_elementwise_mul_s16's with `accumulate` (`dsp_pair_loop`,
`scalar_pair_loop`: both builds ported from the disassembly of the measured objects; see that
module for the cases and totals).
"""
from armsim.cpu.kernel import kernel

from .arm_elementwise_mul_s16 import dsp_pair_loop, scalar_pair_loop

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

Q15_MIN, Q15_MAX = -32768, 32767


@kernel
def arm_elementwise_mul_acc_s16(m, input_1_vect, input_2_vect, input_1_offset,
                                input_2_offset, output, out_offset, out_mult, out_shift,
                                out_activation_min, out_activation_max, block_size):
    """Returns ARM_CMSIS_NN_SUCCESS (0); the offsets are unused (symmetric int16)."""
    if m.dsp:
        return dsp_pair_loop(m, input_1_vect, input_2_vect, output, out_mult, out_shift,
                             out_activation_min, out_activation_max, block_size, True)
    return scalar_pair_loop(m, input_1_vect, input_2_vect, output, out_mult, out_shift,
                            out_activation_min, out_activation_max, block_size, True)
