"""arm_minimum_s8 (Source/BasicMathFunctions/arm_minimum_s8.c), non-MVE code: arm_maximum_s8's
C with `in1 >= in2 ? in2 : in1` for `in1 >= in2 ? in1 : in2` (gcc: IT GE; MOVGE instead of
IT LT; MOVLT), so it runs the shared body in arm_maximum_s8.py; calibration is described
there (min_s8_2x4x6x16_bcast_1x1x6x16)."""
from armsim.cpu.kernel import kernel

from .arm_maximum_s8 import max_min_body


@kernel
def arm_minimum_s8(m, input_1_data, n1, h1, w1, c1, input_2_data, n2, h2, w2, c2,
                   output_data, output_batch, output_height, output_width):
    return max_min_body(m, False, input_1_data, n1, h1, w1, c1, input_2_data, n2, h2, w2, c2,
                        output_data, output_batch, output_height, output_width)
