"""MIN and MAX as gcc -O2 compiles them for Thumb-2 when the result stays in the register
of the first operand: a CMP, a one-instruction IT block and the predicated MOV.

    MAX(x, lo)       CMSIS-NN's arm_nn_types.h macro, std::max(x, lo)   CMP x, lo; IT LT; MOVLT x, lo
    MIN(x, hi)       CMSIS-NN's macro                                   CMP x, hi; IT GT; MOVGT x, hi
    std::min(x, hi)  TFLM's reference kernels (gcc 12.2)                CMP x, hi; IT GE; MOVGE x, hi

As in the measured counts, the predicated MOV counts only when its condition holds, so
`min_gt` and `min_ge` differ by one MOV when x == hi; when it fails, it is the IT block's
failed instruction (`it(m, 1)`: an issue slot, not an instruction).  The call sites keep the C
expression in their trailing comment; the caller's stack reloads around a clamp stay in
the caller, where the compiled code of each kernel puts them.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import cmp, it, mov


@kernel(inline=True)
def max_lt(m, x, lo):
    """MAX(x, lo): CMP x, lo; IT LT; MOVLT x, lo."""
    cmp(m, x, lo)
    clamp = x < lo
    it(m, not clamp)                     # the MOV's condition fails unless it clamps
    if clamp:
        x = mov(m, lo)
    return x


@kernel(inline=True)
def min_gt(m, x, hi):
    """MIN(x, hi): CMP x, hi; IT GT; MOVGT x, hi."""
    cmp(m, x, hi)
    clamp = x > hi
    it(m, not clamp)                     # the MOV's condition fails unless it clamps
    if clamp:
        x = mov(m, hi)
    return x


@kernel(inline=True)
def min_ge(m, x, hi):
    """std::min(x, hi) as gcc compiles it: CMP x, hi; IT GE; MOVGE x, hi."""
    cmp(m, x, hi)
    clamp = x >= hi
    it(m, not clamp)                     # the MOV's condition fails unless it clamps
    if clamp:
        x = mov(m, hi)
    return x
