"""arm_nn_exp_on_negative_values (Include/arm_nnsupportfunctions.h), EXP_ON_NEG: exp(x) for
x <= 0 in Q5.26, result Q0.31 (gemmlowp's exp_on_negative_values).

    shift = 24;
    val_mod_minus_quarter = (val & ((1 << shift) - 1)) - (1 << shift);
    remainder = val_mod_minus_quarter - val;
    x = (val_mod_minus_quarter << 5) + (1 << 28);
    x2 = MUL_SAT(x, x);
    result = 1895147668 + MUL_SAT(1895147668,
        x + DIV_POW2(MUL_SAT(DIV_POW2(MUL_SAT(x2, x2), 2) + MUL_SAT(x2, x), 715827883) + x2, 1));
    SELECT_IF_NON_ZERO(c) for c in 1672461947, 1302514674, 790015084, 290630308, 39332535,
        720401, 242:  mask = MASK_IF_NON_ZERO(remainder & (1 << shift++));
                      result = SELECT_USING_MASK(mask, MUL_SAT(result, c), result);
    mask = MASK_IF_ZERO(val);
    return SELECT_USING_MASK(mask, NN_Q31_MAX, result);

Every MUL_SAT is computed (the selects are branch-free): the bit test is UBFX + RSB (0 or
-1), the select EOR / AND / EOR (`b ^ ((a ^ b) & mask)`, gcc's form of
`((mask) & (a)) ^ (~(mask) & (b))`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import add, and_, cmp, eor, it, lsl, mvn, rsb, sub, ubfx

from .arm_nn_doubling_high_mult import arm_nn_doubling_high_mult
from .arm_nn_divide_by_power_of_two_const import arm_nn_divide_by_power_of_two_const


@kernel(inline=True)
def _select_if_non_zero(m, result, remainder, bit, constant):
    mask = rsb(m, ubfx(m, remainder, bit, 1), 0)           # MASK_IF_NON_ZERO(remainder & (1 << shift))
    product = arm_nn_doubling_high_mult(m, result, constant, True)   # MUL_SAT(result, c)
    # SELECT_USING_MASK(mask, product, result) = (mask & product) ^ (~mask & result),
    # which gcc rewrites as result ^ ((product ^ result) & mask)
    return eor(m, result, and_(m, eor(m, product, result), mask))


@kernel
def arm_nn_exp_on_negative_values(m, val):
    val_mod_minus_quarter = sub(m, ubfx(m, val, 0, 24), 1 << 24)   # (val & ((1 << 24) - 1)) - (1 << 24)
    remainder = sub(m, val_mod_minus_quarter, val)                  # val_mod_minus_quarter - val
    x = add(m, lsl(m, val_mod_minus_quarter, 5), 1 << 28)           # (val_mod_minus_quarter << 5) + (1 << 28)
    x2 = arm_nn_doubling_high_mult(m, x, x, False)                  # MUL_SAT(x, x)
    t = arm_nn_divide_by_power_of_two_const(m, arm_nn_doubling_high_mult(m, x2, x2, False), 2)
    t = add(m, t, arm_nn_doubling_high_mult(m, x2, x, False))       # ... + MUL_SAT(x2, x)
    t = arm_nn_doubling_high_mult(m, t, 715827883, True)            # MUL_SAT(..., 715827883)
    t = arm_nn_divide_by_power_of_two_const(m, add(m, t, x2), 1)          # DIV_POW2(... + x2, 1)
    t = arm_nn_doubling_high_mult(m, add(m, x, t), 1895147668, True)  # MUL_SAT(1895147668, x + ...)
    result = add(m, t, 1895147668)                                  # 1895147668 + ...
    result = _select_if_non_zero(m, result, remainder, 24, 1672461947)
    result = _select_if_non_zero(m, result, remainder, 25, 1302514674)
    result = _select_if_non_zero(m, result, remainder, 26, 790015084)
    result = _select_if_non_zero(m, result, remainder, 27, 290630308)
    result = _select_if_non_zero(m, result, remainder, 28, 39332535)
    result = _select_if_non_zero(m, result, remainder, 29, 720401)
    result = _select_if_non_zero(m, result, remainder, 30, 242)
    cmp(m, val, 0)                                                  # MASK_IF_ZERO(val)
    it(m, val != 0)                                                 # the MVN fails unless val == 0
    if val == 0:
        result = mvn(m, -0x80000000)                                # NN_Q31_MAX
    return result
