"""arm_nn_divide_by_power_of_two (Include/arm_nnsupportfunctions.h) at a call site whose
exponent is a compile-time constant (DIV_POW2(x, 1), (x, 2), (x, ACCUM_BITS) in softmax).

gcc folds `remainder_mask = (1 << exponent) - 1` and `threshold = remainder_mask >> 1`
into immediates, leaving AND, ASR and the two conditional increments; the general form,
with the mask built at run time, is `arm_nn_divide_by_power_of_two` in
kernels/cmsis_nn/arm_nn_requantize.py.  Same result for every input.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import and_, asr

from .arm_nn_requantize import round_half_away


@kernel(inline=True)
def arm_nn_divide_by_power_of_two_const(m, dividend, exponent):
    remainder_mask = (1 << exponent) - 1                 # an immediate
    threshold = remainder_mask >> 1                      # an immediate
    remainder = and_(m, dividend, remainder_mask)        # remainder_mask & dividend
    result = asr(m, dividend, exponent)                  # dividend >> exponent
    return round_half_away(m, result, remainder, threshold)
