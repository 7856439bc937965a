"""Instruction semantics of the Armv7E-M / Armv8-M integer and DSP instructions.

One small pure function per instruction, named as in the Arm Architecture Reference
Manual (ARM DDI 0403E, section A7.7) and written after its Operation pseudocode.

Conventions
-----------
* A register value is a 32-bit bit pattern carried as a Python/numba ``int`` holding its
  signed interpretation (-2**31 .. 2**31-1), the way CMSIS-NN's C code holds ``int32_t``.
  Every function accepts any integer and uses only its low 32 bits, and returns values in
  that signed range, so results are identical under CPython and numba (int64).
* Instructions that can set the sticky Q flag return ``(result, q)``; SIMD add/subtract
  return ``(result, ge)`` with the four GE bits as an int 0..15; SEL takes GE as input.
* 64-bit results (SMULL, SMLAL, ...) are ``(lo, hi)`` register pairs.
* No intermediate value leaves int64 and no uint64 is ever formed: numba would turn a
  mix of int64 and uint64 into float64.

Every function is compiled with numba so the counted machine (armsim.cpu.ops) can inline it;
called from Python it runs the same compiled code.
"""
from .jit import jit

_MASK32 = 0xFFFFFFFF


# --- bit-vector helpers (the manual's UInt / SInt / SignedSatQ / UnsignedSatQ) -----------

@jit
def u32(x):
    """UInt(x<31:0>)."""
    return x & _MASK32


@jit
def s32(x):
    """SInt(x<31:0>): the low 32 bits as a signed value (a register value)."""
    return ((x & _MASK32) ^ 0x80000000) - 0x80000000


@jit
def s16(x):
    """SInt(x<15:0>)."""
    return ((x & 0xFFFF) ^ 0x8000) - 0x8000


@jit
def s8(x):
    """SInt(x<7:0>)."""
    return ((x & 0xFF) ^ 0x80) - 0x80


@jit
def top16(x):
    """SInt(x<31:16>)."""
    return s16(x >> 16)


@jit
def signed_sat_q(i, n):
    """SignedSatQ(i, N): (saturated value, saturation occurred)."""
    hi = (1 << (n - 1)) - 1
    lo = -(1 << (n - 1))
    if i > hi:
        return hi, True
    if i < lo:
        return lo, True
    return i, False


@jit
def unsigned_sat_q(i, n):
    """UnsignedSatQ(i, N): (saturated value, saturation occurred)."""
    hi = (1 << n) - 1
    if i > hi:
        return hi, True
    if i < 0:
        return 0, True
    return i, False


@jit
def ror32(x, n):
    """ROR(x, n) on 32 bits (n taken modulo 32)."""
    n &= 31
    x = u32(x)
    return s32((x >> n) | (x << (32 - n))) if n else s32(x)


@jit
def _pair(value64):
    """Split a 64-bit two's-complement value (as int) into (RdLo, RdHi) register values."""
    lo = value64 & _MASK32
    hi = (value64 - lo) >> 32
    return s32(lo), s32(hi)


@jit
def _accumulate64(rdlo, rdhi, addend):
    """RdHi:RdLo + addend modulo 2**64, carried through the low word (|addend| < 2**63)."""
    low = u32(rdlo) + (addend & _MASK32)
    high = s32(rdhi) + (addend >> 32) + (low >> 32)
    return s32(low), s32(high)


# --- data processing -------------------------------------------------------------------

@jit
def ADD(rn, rm):
    """ADD: (result, carry, overflow) = AddWithCarry(R[n], shifted, '0')."""
    return s32(rn + rm)


@jit
def SUB(rn, rm):
    """SUB: R[d] = R[n] - shifted (AddWithCarry(R[n], NOT(shifted), '1'))."""
    return s32(rn - rm)


@jit
def RSB(rn, rm):
    """RSB: R[d] = NOT(R[n]) + shifted + 1, i.e. operand - R[n]."""
    return s32(rm - rn)


@jit
def ADC(rn, rm, carry):
    """ADC: (result, -, -) = AddWithCarry(R[n], shifted, APSR.C); R[d] = result.
    `carry` is APSR.C (0 or 1), as left by the preceding ADDS of a 64-bit add."""
    return s32(rn + rm + carry)


@jit
def SBC(rn, rm, carry):
    """SBC: (result, -, -) = AddWithCarry(R[n], NOT(shifted), APSR.C); R[d] = result,
    i.e. R[n] - R[m] - NOT(C).  `carry` is APSR.C (0 or 1: 1 means no borrow)."""
    return s32(rn - rm - 1 + carry)


@jit
def AND(rn, rm):
    """AND: R[d] = R[n] AND shifted."""
    return s32(rn & rm)


@jit
def ORR(rn, rm):
    """ORR: R[d] = R[n] OR shifted."""
    return s32(rn | rm)


@jit
def EOR(rn, rm):
    """EOR: R[d] = R[n] EOR shifted."""
    return s32(rn ^ rm)


@jit
def BIC(rn, rm):
    """BIC: R[d] = R[n] AND NOT(shifted)."""
    return s32(rn & ~rm)


@jit
def MVN(rm):
    """MVN: R[d] = NOT(shifted)."""
    return s32(~rm)


@jit
def MOV(rm):
    """MOV: R[d] = R[m]."""
    return s32(rm)


@jit
def CLZ(rm):
    """CLZ: number of leading zero bits (32 for zero)."""
    x = u32(rm)
    n = 0
    bit = 0x80000000
    while n < 32 and (x & bit) == 0:
        n += 1
        bit >>= 1
    return n


# --- shifts ------------------------------------------------------------------------------

@jit
def LSL(rm, shift_n):
    """LSL (register): shift amount is R[s]<7:0>; 32 or more gives 0."""
    n = shift_n & 0xFF
    return 0 if n >= 32 else s32(u32(rm) << n)


@jit
def LSR(rm, shift_n):
    """LSR (register): logical shift right by R[s]<7:0>; 32 or more gives 0."""
    n = shift_n & 0xFF
    return 0 if n >= 32 else s32(u32(rm) >> n)


@jit
def ASR(rm, shift_n):
    """ASR (register): arithmetic shift right by R[s]<7:0>; 32 or more gives the sign."""
    n = shift_n & 0xFF
    return s32(s32(rm) >> (31 if n >= 32 else n))


@jit
def ROR(rm, shift_n):
    """ROR (register): rotation by R[s]<7:0> modulo 32."""
    return ror32(rm, shift_n & 0xFF)


# --- bit fields --------------------------------------------------------------------------

@jit
def UBFX(rn, lsb, width):
    """UBFX Rd, Rn, #lsb, #width: msbit = lsbit + widthminus1;
    R[d] = ZeroExtend(R[n]<msbit:lsbit>, 32) (lsb 0..31, width 1..32-lsb)."""
    return s32((u32(rn) >> lsb) & ((1 << width) - 1))


@jit
def SBFX(rn, lsb, width):
    """SBFX Rd, Rn, #lsb, #width: msbit = lsbit + widthminus1;
    R[d] = SignExtend(R[n]<msbit:lsbit>, 32) (lsb 0..31, width 1..32-lsb)."""
    field = (u32(rn) >> lsb) & ((1 << width) - 1)
    return s32(field - ((field >> (width - 1)) << width))


@jit
def BFI(rd, rn, lsb, width):
    """BFI Rd, Rn, #lsb, #width: R[d]<msbit:lsbit> = R[n]<(msbit-lsbit):0>, the other bits
    of R[d] unchanged (msbit = lsb + width - 1; lsb 0..31, width 1..32-lsb)."""
    mask = ((1 << width) - 1) << lsb
    return s32((u32(rd) & ~mask) | ((u32(rn) << lsb) & mask))


# --- multiplies --------------------------------------------------------------------------

@jit
def MUL(rn, rm):
    """MUL: low 32 bits of the product (signed and unsigned agree)."""
    return s32(s32(rn) * s32(rm))


@jit
def MLA(rn, rm, ra):
    """MLA: R[d] = (SInt(R[n]) * SInt(R[m]) + SInt(R[a]))<31:0>."""
    return s32(s32(rn) * s32(rm) + s32(ra))


@jit
def MLS(rn, rm, ra):
    """MLS: R[d] = (SInt(R[a]) - SInt(R[n]) * SInt(R[m]))<31:0>."""
    return s32(s32(ra) - s32(rn) * s32(rm))


@jit
def SMULL(rn, rm):
    """SMULL: (RdLo, RdHi) = SInt(R[n]) * SInt(R[m])."""
    return _pair(s32(rn) * s32(rm))


@jit
def SMLAL(rdlo, rdhi, rn, rm):
    """SMLAL: RdHi:RdLo += SInt(R[n]) * SInt(R[m]), modulo 2**64."""
    return _accumulate64(rdlo, rdhi, s32(rn) * s32(rm))


@jit
def _umul64(a, b):
    """UInt(a) * UInt(b) as (lo, hi) halves, computed in 16-bit limbs to stay in int64."""
    a, b = u32(a), u32(b)
    a_lo, a_hi = a & 0xFFFF, a >> 16
    b_lo, b_hi = b & 0xFFFF, b >> 16
    ll = a_lo * b_lo
    mid = a_lo * b_hi + a_hi * b_lo + (ll >> 16)          # < 2**34
    lo = ((mid & 0xFFFF) << 16) | (ll & 0xFFFF)
    hi = a_hi * b_hi + (mid >> 16)
    return lo, hi


@jit
def UMULL(rn, rm):
    """UMULL: (RdLo, RdHi) = UInt(R[n]) * UInt(R[m])."""
    lo, hi = _umul64(rn, rm)
    return s32(lo), s32(hi)


@jit
def UMLAL(rdlo, rdhi, rn, rm):
    """UMLAL: RdHi:RdLo += UInt(R[n]) * UInt(R[m]), modulo 2**64."""
    lo, hi = _umul64(rn, rm)
    lo += u32(rdlo)
    hi += u32(rdhi) + (lo >> 32)
    return s32(lo), s32(hi)


@jit
def SMMUL(rn, rm):
    """SMMUL: R[d] = (SInt(R[n]) * SInt(R[m]))<63:32>."""
    return s32((s32(rn) * s32(rm)) >> 32)


@jit
def SMMULR(rn, rm):
    """SMMULR: as SMMUL, rounded: (product + 0x80000000)<63:32>."""
    return s32((s32(rn) * s32(rm) + 0x80000000) >> 32)


@jit
def SMMLA(rn, rm, ra):
    """SMMLA: R[d] = ((SInt(R[a]) << 32) + SInt(R[n]) * SInt(R[m]))<63:32>."""
    return s32(((s32(ra) << 32) + s32(rn) * s32(rm)) >> 32)


@jit
def _half(x, top):
    """SInt of the top (R<31:16>) or bottom (R<15:0>) halfword."""
    return top16(x) if top else s16(x)


@jit
def _smla_xy(rn, rm, ra, n_top, m_top):
    """SMLA<x><y>: halfword product + SInt(R[a]); (result<31:0>, overflow -> Q)."""
    result = _half(rn, n_top) * _half(rm, m_top) + s32(ra)
    return s32(result), result != s32(result)


@jit
def SMLABB(rn, rm, ra):
    """SMLABB: R[d] = SInt(R[n]<15:0>) * SInt(R[m]<15:0>) + SInt(R[a]); Q on overflow."""
    return _smla_xy(rn, rm, ra, False, False)


@jit
def SMLABT(rn, rm, ra):
    """SMLABT: R[d] = SInt(R[n]<15:0>) * SInt(R[m]<31:16>) + SInt(R[a]); Q on overflow."""
    return _smla_xy(rn, rm, ra, False, True)


@jit
def SMLATB(rn, rm, ra):
    """SMLATB: R[d] = SInt(R[n]<31:16>) * SInt(R[m]<15:0>) + SInt(R[a]); Q on overflow."""
    return _smla_xy(rn, rm, ra, True, False)


@jit
def SMLATT(rn, rm, ra):
    """SMLATT: R[d] = SInt(R[n]<31:16>) * SInt(R[m]<31:16>) + SInt(R[a]); Q on overflow."""
    return _smla_xy(rn, rm, ra, True, True)


@jit
def _smlal_xy(rdlo, rdhi, rn, rm, n_top, m_top):
    """SMLAL<x><y>: RdHi:RdLo += halfword product, modulo 2**64."""
    return _accumulate64(rdlo, rdhi, _half(rn, n_top) * _half(rm, m_top))


@jit
def SMLALBB(rdlo, rdhi, rn, rm):
    """SMLALBB: RdHi:RdLo += SInt(R[n]<15:0>) * SInt(R[m]<15:0>), modulo 2**64."""
    return _smlal_xy(rdlo, rdhi, rn, rm, False, False)


@jit
def SMLALBT(rdlo, rdhi, rn, rm):
    """SMLALBT: RdHi:RdLo += SInt(R[n]<15:0>) * SInt(R[m]<31:16>), modulo 2**64."""
    return _smlal_xy(rdlo, rdhi, rn, rm, False, True)


@jit
def SMLALTB(rdlo, rdhi, rn, rm):
    """SMLALTB: RdHi:RdLo += SInt(R[n]<31:16>) * SInt(R[m]<15:0>), modulo 2**64."""
    return _smlal_xy(rdlo, rdhi, rn, rm, True, False)


@jit
def SMLALTT(rdlo, rdhi, rn, rm):
    """SMLALTT: RdHi:RdLo += SInt(R[n]<31:16>) * SInt(R[m]<31:16>), modulo 2**64."""
    return _smlal_xy(rdlo, rdhi, rn, rm, True, True)


@jit
def SMULBB(rn, rm):
    """SMULBB: R[d] = SInt(R[n]<15:0>) * SInt(R[m]<15:0>) (cannot overflow)."""
    return s16(rn) * s16(rm)


@jit
def SMULBT(rn, rm):
    """SMULBT: R[d] = SInt(R[n]<15:0>) * SInt(R[m]<31:16>)."""
    return s16(rn) * top16(rm)


@jit
def SMULTB(rn, rm):
    """SMULTB: R[d] = SInt(R[n]<31:16>) * SInt(R[m]<15:0>)."""
    return top16(rn) * s16(rm)


@jit
def SMULTT(rn, rm):
    """SMULTT: R[d] = (SInt(R[n]<31:16>) * SInt(R[m]<31:16>))<31:0> (0x8000^2 = 2**30 fits)."""
    return s32(top16(rn) * top16(rm))


@jit
def SMLAD(rn, rm, ra):
    """SMLAD: R[d] = lo(n)*lo(m) + hi(n)*hi(m) + R[a]; Q set if the sum overflows 32 bits."""
    result = s16(rn) * s16(rm) + top16(rn) * top16(rm) + s32(ra)
    return s32(result), result != s32(result)


@jit
def SMLADX(rn, rm, ra):
    """SMLADX: as SMLAD with the halfwords of R[m] exchanged."""
    result = s16(rn) * top16(rm) + top16(rn) * s16(rm) + s32(ra)
    return s32(result), result != s32(result)


@jit
def SMLSD(rn, rm, ra):
    """SMLSD: R[d] = lo(n)*lo(m) - hi(n)*hi(m) + R[a]; Q on overflow."""
    result = s16(rn) * s16(rm) - top16(rn) * top16(rm) + s32(ra)
    return s32(result), result != s32(result)


@jit
def SMUAD(rn, rm):
    """SMUAD: R[d] = lo(n)*lo(m) + hi(n)*hi(m); Q set only by 0x8000*0x8000 twice."""
    result = s16(rn) * s16(rm) + top16(rn) * top16(rm)
    return s32(result), result != s32(result)


@jit
def SMUSD(rn, rm):
    """SMUSD: R[d] = lo(n)*lo(m) - hi(n)*hi(m) (cannot overflow)."""
    return s32(s16(rn) * s16(rm) - top16(rn) * top16(rm))


@jit
def SMLALD(rdlo, rdhi, rn, rm):
    """SMLALD: RdHi:RdLo += lo(n)*lo(m) + hi(n)*hi(m), modulo 2**64 (no Q)."""
    return _accumulate64(rdlo, rdhi, s16(rn) * s16(rm) + top16(rn) * top16(rm))


# --- extend and pack ---------------------------------------------------------------------

@jit
def SXTB(rm, rotation):
    """SXTB: SignExtend(ROR(R[m], rotation)<7:0>); rotation is 0, 8, 16 or 24."""
    return s8(ror32(rm, rotation))


@jit
def SXTH(rm, rotation):
    """SXTH: SignExtend(ROR(R[m], rotation)<15:0>)."""
    return s16(ror32(rm, rotation))


@jit
def UXTB(rm, rotation):
    """UXTB: ZeroExtend(ROR(R[m], rotation)<7:0>)."""
    return ror32(rm, rotation) & 0xFF


@jit
def UXTH(rm, rotation):
    """UXTH: ZeroExtend(ROR(R[m], rotation)<15:0>)."""
    return ror32(rm, rotation) & 0xFFFF


@jit
def SXTAB(rn, rm, rotation):
    """SXTAB: R[n] + SignExtend(ROR(R[m], rotation)<7:0>)."""
    return s32(rn + s8(ror32(rm, rotation)))


@jit
def SXTAH(rn, rm, rotation):
    """SXTAH: R[n] + SignExtend(ROR(R[m], rotation)<15:0>)."""
    return s32(rn + s16(ror32(rm, rotation)))


@jit
def UXTAH(rn, rm, rotation):
    """UXTAH: R[n] + ZeroExtend(ROR(R[m], rotation)<15:0>)."""
    return s32(rn + (ror32(rm, rotation) & 0xFFFF))


@jit
def SXTB16(rm, rotation):
    """SXTB16: rotated = ROR(R[m], rotation);
    R[d]<15:0> = SignExtend(rotated<7:0>); R[d]<31:16> = SignExtend(rotated<23:16>)."""
    rotated = ror32(rm, rotation)
    return s32(((s8(rotated) & 0xFFFF)) | ((s8(rotated >> 16) & 0xFFFF) << 16))


@jit
def UXTB16(rm, rotation):
    """UXTB16: rotated = ROR(R[m], rotation); R[d]<15:0> = ZeroExtend(rotated<7:0>);
    R[d]<31:16> = ZeroExtend(rotated<23:16>)."""
    rotated = ror32(rm, rotation)
    return s32((rotated & 0xFF) | (rotated & 0xFF0000))


@jit
def SXTAB16(rn, rm, rotation):
    """SXTAB16: R[d]<15:0> = R[n]<15:0> + SignExtend(rotated<7:0>);
    R[d]<31:16> = R[n]<31:16> + SignExtend(rotated<23:16>) (each lane modulo 2**16)."""
    rotated = ror32(rm, rotation)
    lo = (rn + s8(rotated)) & 0xFFFF
    hi = ((rn >> 16) + s8(rotated >> 16)) & 0xFFFF
    return s32(lo | (hi << 16))


@jit
def UXTAB16(rn, rm, rotation):
    """UXTAB16: each halfword lane of R[n] + ZeroExtend of its byte of the rotated R[m]
    (modulo 2**16)."""
    rotated = ror32(rm, rotation)
    lo = (rn + (rotated & 0xFF)) & 0xFFFF
    hi = ((rn >> 16) + ((rotated >> 16) & 0xFF)) & 0xFFFF
    return s32(lo | (hi << 16))


@jit
def PKHBT(rn, rm, shift):
    """PKHBT: R[d]<15:0> = R[n]<15:0>; R[d]<31:16> = LSL(R[m], shift)<31:16> (shift 0..31)."""
    return s32((rn & 0xFFFF) | (u32(rm) << shift) & 0xFFFF0000)


@jit
def PKHTB(rn, rm, shift):
    """PKHTB: R[d]<15:0> = ASR(R[m], shift)<15:0>; R[d]<31:16> = R[n]<31:16>.
    An encoded shift of 0 means ASR #32."""
    shifted = s32(rm) >> (31 if shift == 0 else shift)
    return s32((shifted & 0xFFFF) | (rn & 0xFFFF0000))


@jit
def REV(rm):
    """REV: R[d] = the four bytes of R[m] in reverse order."""
    x = u32(rm)
    return s32(((x & 0xFF) << 24) | ((x & 0xFF00) << 8) | ((x >> 8) & 0xFF00) | (x >> 24))


@jit
def REV16(rm):
    """REV16: the two bytes of each halfword of R[m] swapped."""
    x = u32(rm)
    return s32(((x & 0x00FF00FF) << 8) | ((x >> 8) & 0x00FF00FF))


# --- saturating --------------------------------------------------------------------------

@jit
def SSAT(rn, saturate_to, shift_left):
    """SSAT #saturate_to, Rn, LSL #shift_left (1 <= saturate_to <= 32); Q if saturated."""
    return signed_sat_q(s32(u32(rn) << shift_left), saturate_to)


@jit
def SSAT_ASR(rn, saturate_to, shift_right):
    """SSAT #saturate_to, Rn, ASR #shift_right (1..31)."""
    return signed_sat_q(s32(rn) >> shift_right, saturate_to)


@jit
def USAT(rn, saturate_to, shift_left):
    """USAT #saturate_to, Rn, LSL #shift_left (0 <= saturate_to <= 31); Q if saturated."""
    return unsigned_sat_q(s32(u32(rn) << shift_left), saturate_to)


@jit
def USAT_ASR(rn, saturate_to, shift_right):
    """USAT #saturate_to, Rn, ASR #shift_right (1..31)."""
    return unsigned_sat_q(s32(rn) >> shift_right, saturate_to)


@jit
def _ssat_lanes16(lo, hi, n):
    """Both halfword lanes SignedSatQ(lane, n), packed; (result, any saturated)."""
    lo_r, lo_q = signed_sat_q(lo, n)
    hi_r, hi_q = signed_sat_q(hi, n)
    return s32((lo_r & 0xFFFF) | ((hi_r & 0xFFFF) << 16)), lo_q or hi_q


@jit
def SSAT16(rn, saturate_to):
    """SSAT16: each signed halfword saturated to saturate_to bits (1..16); Q if any saturated."""
    return _ssat_lanes16(s16(rn), top16(rn), saturate_to)


@jit
def USAT16(rn, saturate_to):
    """USAT16: each signed halfword UnsignedSat to saturate_to bits (0..15); Q if any
    saturated."""
    lo_r, lo_q = unsigned_sat_q(s16(rn), saturate_to)
    hi_r, hi_q = unsigned_sat_q(top16(rn), saturate_to)
    return s32(lo_r | (hi_r << 16)), lo_q or hi_q


@jit
def QADD(rm, rn):
    """QADD Rd, Rm, Rn: SignedSatQ(SInt(R[m]) + SInt(R[n]), 32)."""
    return signed_sat_q(s32(rm) + s32(rn), 32)


@jit
def QSUB(rm, rn):
    """QSUB Rd, Rm, Rn: SignedSatQ(SInt(R[m]) - SInt(R[n]), 32)."""
    return signed_sat_q(s32(rm) - s32(rn), 32)


@jit
def QDADD(rm, rn):
    """QDADD Rd, Rm, Rn: SignedSatQ(R[m] + SignedSatQ(2 * R[n], 32), 32)."""
    doubled, q1 = signed_sat_q(2 * s32(rn), 32)
    result, q2 = signed_sat_q(s32(rm) + doubled, 32)
    return result, q1 or q2


@jit
def QDSUB(rm, rn):
    """QDSUB Rd, Rm, Rn: SignedSatQ(R[m] - SignedSatQ(2 * R[n], 32), 32)."""
    doubled, q1 = signed_sat_q(2 * s32(rn), 32)
    result, q2 = signed_sat_q(s32(rm) - doubled, 32)
    return result, q1 or q2


@jit
def QADD16(rn, rm):
    """QADD16: each halfword lane SignedSat(R[n].h + R[m].h, 16) (Q not affected)."""
    lo = signed_sat_q(s16(rn) + s16(rm), 16)[0]
    hi = signed_sat_q(top16(rn) + top16(rm), 16)[0]
    return s32((lo & 0xFFFF) | ((hi & 0xFFFF) << 16))


@jit
def QSUB16(rn, rm):
    """QSUB16: each halfword lane SignedSat(R[n].h - R[m].h, 16) (Q not affected)."""
    lo = signed_sat_q(s16(rn) - s16(rm), 16)[0]
    hi = signed_sat_q(top16(rn) - top16(rm), 16)[0]
    return s32((lo & 0xFFFF) | ((hi & 0xFFFF) << 16))


@jit
def _bytes_op(rn, rm, subtract, saturate, signed):
    """Shared body of the four byte-lane add/subtract instructions: (result, GE bits)."""
    result = 0
    ge = 0
    for lane in range(4):
        a = (rn >> (8 * lane)) & 0xFF
        b = (rm >> (8 * lane)) & 0xFF
        if signed:
            a, b = s8(a), s8(b)
        total = a - b if subtract else a + b
        if saturate:
            total = signed_sat_q(total, 8)[0]
        if (signed and total >= 0) or (not signed and (total >= 0x100 if not subtract else total >= 0)):
            ge |= 1 << lane
        result |= (total & 0xFF) << (8 * lane)
    return s32(result), ge


@jit
def QADD8(rn, rm):
    """QADD8: each byte lane SignedSat(R[n].b + R[m].b, 8) (Q and GE not affected)."""
    return _bytes_op(rn, rm, False, True, True)[0]


@jit
def QSUB8(rn, rm):
    """QSUB8: each byte lane SignedSat(R[n].b - R[m].b, 8) (Q and GE not affected)."""
    return _bytes_op(rn, rm, True, True, True)[0]


@jit
def SADD8(rn, rm):
    """SADD8: byte lanes R[n] + R[m]; GE[i] = sum >= 0."""
    return _bytes_op(rn, rm, False, False, True)


@jit
def SSUB8(rn, rm):
    """SSUB8: byte lanes R[n] - R[m]; GE[i] = difference >= 0."""
    return _bytes_op(rn, rm, True, False, True)


@jit
def UADD8(rn, rm):
    """UADD8: byte lanes UInt sum; GE[i] = sum >= 0x100 (carry out)."""
    return _bytes_op(rn, rm, False, False, False)


@jit
def USUB8(rn, rm):
    """USUB8: byte lanes UInt difference; GE[i] = difference >= 0 (no borrow)."""
    return _bytes_op(rn, rm, True, False, False)


@jit
def _halves_op(rn, rm, subtract):
    """Shared body of SADD16/SSUB16: signed halfword lanes, GE pairs = lane >= 0."""
    lo = s16(rn) - s16(rm) if subtract else s16(rn) + s16(rm)
    hi = top16(rn) - top16(rm) if subtract else top16(rn) + top16(rm)
    ge = (0b0011 if lo >= 0 else 0) | (0b1100 if hi >= 0 else 0)
    return s32((lo & 0xFFFF) | ((hi & 0xFFFF) << 16)), ge


@jit
def SADD16(rn, rm):
    """SADD16: halfword lanes R[n] + R[m]; GE[1:0] = lo sum >= 0, GE[3:2] = hi sum >= 0."""
    return _halves_op(rn, rm, False)


@jit
def SSUB16(rn, rm):
    """SSUB16: halfword lanes R[n] - R[m]; GE[1:0], GE[3:2] = lane difference >= 0."""
    return _halves_op(rn, rm, True)


@jit
def SEL(rn, rm, ge):
    """SEL: byte i of R[d] is byte i of R[n] if GE[i] else of R[m]."""
    result = 0
    for lane in range(4):
        src = rn if (ge >> lane) & 1 else rm
        result |= src & (0xFF << (8 * lane))
    return s32(result)


# --- divide ------------------------------------------------------------------------------

@jit
def SDIV(rn, rm):
    """SDIV: RoundTowardsZero(SInt(R[n]) / SInt(R[m])); divide by zero gives 0
    (CCR.DIV_0_TRP clear); INT_MIN / -1 gives INT_MIN."""
    n, d = s32(rn), s32(rm)
    if d == 0:
        return 0
    q = abs(n) // abs(d)
    return s32(-q if (n < 0) != (d < 0) else q)


@jit
def UDIV(rn, rm):
    """UDIV: UInt(R[n]) / UInt(R[m]) rounded toward zero; divide by zero gives 0
    (CCR.DIV_0_TRP clear)."""
    d = u32(rm)
    return 0 if d == 0 else s32(u32(rn) // d)
