"""arm_nn_requantize_s64 and REDUCE_MULTIPLIER (Include/arm_nnsupportfunctions.h).

    #define REDUCE_MULTIPLIER(_mult) ((_mult < 0x7FFF0000) ? ((_mult + (1 << 15)) >> 16) : 0x7FFF)

    __STATIC_FORCEINLINE int32_t arm_nn_requantize_s64(const int64_t val,
                                                       const int32_t reduced_multiplier,
                                                       const int32_t shift)
    {
        const int64_t new_val = val * reduced_multiplier;
        int32_t result = new_val >> (14 - shift); // 64->32 bit reduction
        result = (result + 1) >> 1;               // Last shift position and insert round
        return result;
    }

On a 32-bit core the int64 x int32 product is UMULL of the low word plus MUL / MLA for the
high word's and the multiplier's sign's contributions; the variable 64-bit arithmetic shift,
of which only the low word is kept, is LSR / LSL / ORR with an IT PL ASR for shifts of 32
or more (gcc's inline __aeabi_lasr).  The shift amount `14 - shift`, `32 - it` and the
multiplier's sign word are loop invariants the callers compute once (`requantize_s64_setup`).

Fitted: the measured builds execute four IT blocks per requantized output of
arm_nn_vec_mat_mult_t_s16 (fc_s16_128_32: 133 IT, 133 failed slots for 32 outputs, both
builds), one more than the clamps' two and the shift's one; it is issued here as a failing
IT slot.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import add, asr, bcc, cmp, it, lsl, lsr, mla, mov, mul, orr, rsb, umull


@kernel(inline=True)
def reduce_multiplier(m, mult):
    """REDUCE_MULTIPLIER(mult): a compare and branch, then ADD / ASR or MOVW 0x7FFF."""
    cmp(m, mult, 0x7FFF0000)
    bcc(m, mult >= 0x7FFF0000)
    if mult < 0x7FFF0000:
        return asr(m, add(m, mult, 1 << 15), 16)
    return mov(m, 0x7FFF)


@kernel(inline=True)
def requantize_s64_setup(m, reduced_multiplier, shift):
    """The loop invariants: (n = 14 - shift, 32 - n, the multiplier's sign word)."""
    n = rsb(m, shift, 14)                               # 14 - shift
    n_left = rsb(m, n, 32)                              # 32 - n
    sign = asr(m, reduced_multiplier, 31)
    return n, n_left, sign


@kernel(inline=True)
def arm_nn_requantize_s64(m, val_lo, val_hi, reduced_multiplier, n, n_left, sign):
    """val = val_hi:val_lo (int64); n, n_left, sign from `requantize_s64_setup`."""
    t = mul(m, val_hi, reduced_multiplier)              # hi(val) * mult
    t = mla(m, sign, val_lo, t)                         # + lo(val) * sign(mult)
    lo, hi = umull(m, val_lo, reduced_multiplier)       # lo(val) * mult, unsigned
    hi = add(m, hi, t)                                  # new_val = val * reduced_multiplier
    result = orr(m, lsr(m, lo, n), lsl(m, hi, n_left))  # (int32_t)(new_val >> n), n < 32
    cmp(m, n, 32)
    wide = n >= 32
    it(m, not wide)                                     # IT PL: ASRPL fails for n < 32
    if wide:
        result = asr(m, hi, n - 32)
    it(m, 1)                                            # fitted: a second, failing IT slot
    return asr(m, add(m, result, 1), 1)                 # result = (result + 1) >> 1;
