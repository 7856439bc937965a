"""arm_nn_mult_by_power_of_two (Include/arm_nnsupportfunctions.h), MUL_POW2: a saturating
left shift by a constant `exp` (1 or 2 in the softmax code).

    const int32_t thresh = ((1 << (31 - exp)) - 1);
    int32_t result = val << exp;
    result = SELECT_USING_MASK(MASK_IF_NON_ZERO(val > thresh), NN_Q31_MAX, result);
    result = SELECT_USING_MASK(MASK_IF_NON_ZERO(val < -thresh), NN_Q31_MIN, result);

The masks select between two values: gcc emits CMP + IT + MOV for each select.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import cmn, cmp, it, lsl, mov, mvn


@kernel(inline=True)
def arm_nn_mult_by_power_of_two(m, val, exp):
    thresh = (1 << (31 - exp)) - 1                         # a constant at every call site
    result = lsl(m, val, exp)                              # int32_t result = val << exp;
    cmp(m, val, thresh)                                    # val > thresh ? NN_Q31_MAX : result
    it(m, val <= thresh)                                   # the MVN fails unless it saturates
    if val > thresh:
        result = mvn(m, -0x80000000)
    cmn(m, val, thresh)                                    # val < -thresh ? NN_Q31_MIN : result
    it(m, val >= -thresh)                                  # the MOV fails unless it saturates
    if val < -thresh:
        result = mov(m, -0x80000000)
    return result
