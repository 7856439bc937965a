"""Instruction semantics of the Armv8.1-M instructions CMSIS-NN's MVE (Helium) build executes.

One small pure function per instruction, named as in the Armv8-M Architecture Reference
Manual (ARM DDI 0553, the Armv8.1-M MVE instructions) and written after its beat-wise
Operation pseudocode; the scalar conventions are `armsim.cpu.isa`'s (register values are
signed 32-bit values carried in int, only their low 32 bits count, no uint64 is formed).

The vector register
-------------------
A Q register is a tuple of four ints, ``(w0, w1, w2, w3)``: word ``b`` holds bytes
``4b .. 4b+3`` of the 128-bit register as a signed 32-bit register value.  Why four 32-bit
words:

* it is the architecture's own unit: MVE executes an instruction in four *beats* of 32
  bits (``GetCurInstrBeat``), the predicate VPR.P0 has four bits per beat, and the
  pseudocode loops over the elements of one beat.  Each function here is that loop over
  the four words, so a lane never crosses a word and a beat's predicate is 4 bits;
* numba keeps a ``UniTuple(int64, 4)`` in registers: no heap allocation, no reference
  counting, passed and returned by value, so the functions stay pure and cheap (a numpy
  array would be mutable, allocated and reference-counted; sixteen byte lanes would make
  every 32-bit operation reassemble four values);
* a word is exactly what ``VMOV Rt, Qn[x]`` reads, so vector and core registers share one
  convention.

Elements and predication
------------------------
``esize`` is the element size in bits (8, 16, 32).  ``mask`` is the 16-bit predicate in
VPR.P0's layout, one bit per byte: the effective ``elmtMask`` of the manual, i.e. VPR.P0
inside a VPT block, ANDed with the tail predicate of a low-overhead loop's last iteration
(`tail_mask`); ``ALL`` (0xFFFF) when the instruction is not predicated.  As in the
pseudocode, an element-wise instruction writes back only the bytes whose predicate bit is
set (the other bytes of the destination keep their value, so it takes the old destination
``qd``); an element counts as active for loads, stores, reductions and saturation when the
bit of its lowest byte is set; predicated-false elements of a load are zeroed.

Instructions that can saturate return ``(result, qc)``: ``qc`` is True when an active
element saturated, and sets the sticky FPSCR.QC (`armsim.cpu.machine.QC_FLAG`).

Memory is not read here: a load takes the bytes the counted op read (`armsim.cpu.ops_mve`),
as a Q-shaped *memory image* (element ``e`` of ``msize`` bits at byte ``e * msize / 8``,
zero where nothing was read), and a store returns the image to write with the bytes it may
write (`memory_byte_enables`).
"""
from .isa import _accumulate64, s32, signed_sat_q, u32
from .jit import jit

_MASK32 = 0xFFFFFFFF
ALL = 0xFFFF            # every byte lane active: an unpredicated instruction
ZERO = (0, 0, 0, 0)     # a Q register of zeros

# condition codes of VCMP / VPT and the conditional selects (the manual's cond field)
EQ, NE, GE, LT, GT, LE = 0, 1, 10, 11, 12, 13


# --- elements, beats and predicates -----------------------------------------------------

@jit
def element(word, e, esize):
    """SInt(Elem[word, e, esize]): element e (0-based) of a 32-bit beat."""
    field = (word >> (e * esize)) & ((1 << esize) - 1)
    return field - ((field >> (esize - 1)) << esize)


@jit
def uelement(word, e, esize):
    """UInt(Elem[word, e, esize])."""
    return (word >> (e * esize)) & ((1 << esize) - 1)


@jit
def with_element(word, e, esize, value):
    """`word` with element e replaced by value<esize-1:0>."""
    field_mask = ((1 << esize) - 1) << (e * esize)
    return s32((u32(word) & ~field_mask) | ((value << (e * esize)) & field_mask))


@jit
def beat_mask(mask, beat):
    """The four predicate bits (one per byte) of beat `beat`: GetCurInstrBeat's elmtMask."""
    return (mask >> (4 * beat)) & 0xF


@jit
def active(mask4, e, esize):
    """elmtMask[e * (esize DIV 8)]: element e of a beat is active."""
    return (mask4 >> (e * (esize >> 3))) & 1 == 1


@jit
def merge(old, new, mask4):
    """Write back a beat: byte i of the result is `new`'s if mask4<i> else `old`'s."""
    if mask4 == 0xF:
        return s32(new)
    keep = 0
    for i in range(4):
        if (mask4 >> i) & 1:
            keep |= 0xFF << (8 * i)
    return s32((u32(new) & keep) | (u32(old) & ~keep))


@jit
def replicate(rt, esize):
    """A beat holding Rt<esize-1:0> in every element: the scalar operand of a vector-by-
    scalar form (VADD Qd, Qn, Rm ...) and of VDUP."""
    word = 0
    for e in range(32 // esize):
        word |= (rt & ((1 << esize) - 1)) << (e * esize)
    return s32(word)


@jit
def tail_mask(elements, esize):
    """The predicate of a vector of which only the first `elements` (>= 0) elements exist:
    VCTP's, and the tail predication (FPSCR.LTPSIZE) of a low-overhead loop's iteration
    that has fewer than a vector of elements left."""
    lanes = 128 // esize
    n = elements if elements < lanes else lanes
    return (1 << (n * (esize >> 3))) - 1


@jit
def loop_iterations(elements, esize):
    """Iterations of a tail-predicated loop (DLSTP/WLSTP ... LETP) over `elements`
    elements: LETP subtracts a vector's lanes from LR and loops while elements remain."""
    lanes = 128 // esize
    return (elements + lanes - 1) // lanes


# --- element-wise operations (one per beat, then the four beats) -------------------------
# The operation of an element-wise instruction is one of these codes (numba caches no
# function that takes another function as an argument; a constant code folds away).
_ADD, _SUB, _MUL, _MAX, _MIN, _AND, _SHL, _RSHL = range(8)
_QADD, _QRDMULH = range(2)


@jit
def _shift(a, b, esize, rounding):
    """Shift by SInt(b<7:0>): left if positive (bits above esize lost), right if negative
    (arithmetic, rounded if `rounding`: a right shift by esize or more rounds to 0)."""
    shift = ((b & 0xFF) ^ 0x80) - 0x80
    if shift >= 0:
        return 0 if shift >= esize else a << shift
    if -shift >= esize:
        return 0 if rounding else (-1 if a < 0 else 0)
    if rounding:
        return (a + (1 << (-shift - 1))) >> -shift
    return a >> -shift


@jit
def _operation(operation, a, b, esize):
    """The element operation `operation` on the signed elements a, b (any width: the
    caller keeps the low esize bits)."""
    if operation == _ADD:
        return a + b
    if operation == _SUB:
        return a - b
    if operation == _MUL:
        return a * b
    if operation == _MAX:
        return a if a >= b else b
    if operation == _MIN:
        return b if a >= b else a
    if operation == _AND:
        return a & b
    return _shift(a, b, esize, operation == _RSHL)


@jit
def _saturating(operation, a, b, esize):
    """The saturating element operation `operation`: (value, saturated)."""
    if operation == _QADD:
        return signed_sat_q(a + b, esize)
    # VQRDMULH: SignedSatQ((2ab + (1 << (esize-1))) >> esize), halved to stay in int64
    return signed_sat_q((a * b + (1 << (esize - 2))) >> (esize - 1), esize)


@jit
def _lanewise(n, m, esize, operation):
    """One beat of an element-wise operation with no saturation."""
    word = 0
    for e in range(32 // esize):
        result = _operation(operation, element(n, e, esize), element(m, e, esize), esize)
        word |= (result & ((1 << esize) - 1)) << (e * esize)
    return s32(word)


@jit
def _vector(qn, qm, qd, esize, mask, operation):
    """Every beat of an element-wise operation, written back under the predicate."""
    return (merge(qd[0], _lanewise(qn[0], qm[0], esize, operation), beat_mask(mask, 0)),
            merge(qd[1], _lanewise(qn[1], qm[1], esize, operation), beat_mask(mask, 1)),
            merge(qd[2], _lanewise(qn[2], qm[2], esize, operation), beat_mask(mask, 2)),
            merge(qd[3], _lanewise(qn[3], qm[3], esize, operation), beat_mask(mask, 3)))


@jit
def _lanewise_sat(n, m, esize, mask4, operation):
    """One beat of a saturating element-wise operation: (word, an active element
    saturated)."""
    word = 0
    saturated = False
    for e in range(32 // esize):
        result, sat = _saturating(operation, element(n, e, esize), element(m, e, esize), esize)
        word |= (result & ((1 << esize) - 1)) << (e * esize)
        if sat and active(mask4, e, esize):
            saturated = True
    return s32(word), saturated


@jit
def _vector_sat(qn, qm, qd, esize, mask, operation):
    """Every beat of a saturating operation: (result, qc)."""
    w0, q0 = _lanewise_sat(qn[0], qm[0], esize, beat_mask(mask, 0), operation)
    w1, q1 = _lanewise_sat(qn[1], qm[1], esize, beat_mask(mask, 1), operation)
    w2, q2 = _lanewise_sat(qn[2], qm[2], esize, beat_mask(mask, 2), operation)
    w3, q3 = _lanewise_sat(qn[3], qm[3], esize, beat_mask(mask, 3), operation)
    return ((merge(qd[0], w0, beat_mask(mask, 0)), merge(qd[1], w1, beat_mask(mask, 1)),
             merge(qd[2], w2, beat_mask(mask, 2)), merge(qd[3], w3, beat_mask(mask, 3))),
            q0 or q1 or q2 or q3)


@jit
def _scalar(rm, esize):
    """The Q-shaped operand of a vector-by-scalar form."""
    word = replicate(rm, esize)
    return (word, word, word, word)


@jit
def VADD(qn, qm, qd, esize, mask):
    """VADD.I<esize> Qd, Qn, Qm: Elem[Qd, e] = (Elem[Qn, e] + Elem[Qm, e])<esize-1:0>."""
    return _vector(qn, qm, qd, esize, mask, _ADD)


@jit
def VADD_scalar(qn, rm, qd, esize, mask):
    """VADD.I<esize> Qd, Qn, Rm: Elem[Qd, e] = Elem[Qn, e] + R[m]<esize-1:0>."""
    return _vector(qn, _scalar(rm, esize), qd, esize, mask, _ADD)


@jit
def VSUB_scalar(qn, rm, qd, esize, mask):
    """VSUB.I<esize> Qd, Qn, Rm: Elem[Qd, e] = Elem[Qn, e] - R[m]<esize-1:0>."""
    return _vector(qn, _scalar(rm, esize), qd, esize, mask, _SUB)


@jit
def VMUL(qn, qm, qd, esize, mask):
    """VMUL.I<esize> Qd, Qn, Qm: the low esize bits of each product."""
    return _vector(qn, qm, qd, esize, mask, _MUL)


@jit
def VMUL_scalar(qn, rm, qd, esize, mask):
    """VMUL.I<esize> Qd, Qn, Rm."""
    return _vector(qn, _scalar(rm, esize), qd, esize, mask, _MUL)


@jit
def VMAX(qn, qm, qd, esize, mask):
    """VMAX.S<esize> Qd, Qn, Qm: Max(SInt(Elem[Qn, e]), SInt(Elem[Qm, e]))."""
    return _vector(qn, qm, qd, esize, mask, _MAX)


@jit
def VMIN(qn, qm, qd, esize, mask):
    """VMIN.S<esize> Qd, Qn, Qm: Min(SInt(Elem[Qn, e]), SInt(Elem[Qm, e]))."""
    return _vector(qn, qm, qd, esize, mask, _MIN)


@jit
def VAND(qn, qm, qd, mask):
    """VAND Qd, Qn, Qm: bitwise AND (no element size; predicated per byte)."""
    return _vector(qn, qm, qd, 32, mask, _AND)


@jit
def VORR(qn, qm, qd, mask):
    """VORR Qd, Qn, Qm; with Qn = Qm it is VMOV Qd, Qm."""
    return (merge(qd[0], qn[0] | qm[0], beat_mask(mask, 0)),
            merge(qd[1], qn[1] | qm[1], beat_mask(mask, 1)),
            merge(qd[2], qn[2] | qm[2], beat_mask(mask, 2)),
            merge(qd[3], qn[3] | qm[3], beat_mask(mask, 3)))


@jit
def VQADD(qn, qm, qd, esize, mask):
    """VQADD.S<esize> Qd, Qn, Qm: SignedSatQ(Elem[Qn, e] + Elem[Qm, e], esize); (Qd, QC)."""
    return _vector_sat(qn, qm, qd, esize, mask, _QADD)


@jit
def VQRDMULH(qn, qm, qd, esize, mask):
    """VQRDMULH.S<esize> Qd, Qn, Qm: SignedSatQ((2 * n * m + (1 << (esize-1))) >> esize);
    (Qd, QC): only n = m = -2**(esize-1) saturates."""
    return _vector_sat(qn, qm, qd, esize, mask, _QRDMULH)


@jit
def VQRDMULH_scalar(qn, rm, qd, esize, mask):
    """VQRDMULH.S<esize> Qd, Qn, Rm: as VQRDMULH with SInt(R[m]<esize-1:0>) for every m."""
    return _vector_sat(qn, _scalar(rm, esize), qd, esize, mask, _QRDMULH)


@jit
def VSHL(qm, qn, qd, esize, mask):
    """VSHL.S<esize> Qd, Qm, Qn (register): Elem[Qm, e] shifted by SInt(Elem[Qn, e]<7:0>),
    left if positive, arithmetic right if negative, not rounded."""
    return _vector(qm, qn, qd, esize, mask, _SHL)


@jit
def VSHL_scalar(qda, rm, esize, mask):
    """VSHL.S<esize> Qda, Rm: every element shifted by SInt(R[m]<7:0>) (as VSHL)."""
    return _vector(qda, _scalar(rm, esize), qda, esize, mask, _SHL)


@jit
def VRSHL(qm, qn, qd, esize, mask):
    """VRSHL.S<esize> Qd, Qm, Qn: as VSHL, with right shifts rounded (add
    1 << (shift-1) first); a right shift by esize or more gives 0."""
    return _vector(qm, qn, qd, esize, mask, _RSHL)


@jit
def VRSHL_scalar(qda, rm, esize, mask):
    """VRSHL.S<esize> Qda, Rm: every element shifted by SInt(R[m]<7:0>), rounded right."""
    return _vector(qda, _scalar(rm, esize), qda, esize, mask, _RSHL)


@jit
def VSHR(qm, qd, imm, esize, mask):
    """VSHR.S<esize> Qd, Qm, #imm (1 <= imm <= esize): arithmetic shift right."""
    return _vector(qm, _scalar(-imm, esize), qd, esize, mask, _SHL)


@jit
def VDUP(rt, qd, esize, mask):
    """VDUP.<esize> Qd, Rt: every element = R[t]<esize-1:0>."""
    word = replicate(rt, esize)
    return (merge(qd[0], word, beat_mask(mask, 0)), merge(qd[1], word, beat_mask(mask, 1)),
            merge(qd[2], word, beat_mask(mask, 2)), merge(qd[3], word, beat_mask(mask, 3)))


@jit
def VPSEL(qn, qm, p0):
    """VPSEL Qd, Qn, Qm: byte i from Qn if VPR.P0<i> else from Qm."""
    return (merge(qm[0], qn[0], beat_mask(p0, 0)), merge(qm[1], qn[1], beat_mask(p0, 1)),
            merge(qm[2], qn[2], beat_mask(p0, 2)), merge(qm[3], qn[3], beat_mask(p0, 3)))


@jit
def _vidup_beat(first, beat, imm, esize):
    word = 0
    per_beat = 32 // esize
    for e in range(per_beat):
        word |= ((first + (beat * per_beat + e) * imm) & ((1 << esize) - 1)) << (e * esize)
    return s32(word)


@jit
def VIDUP(rn, imm, qd, esize, mask):
    """VIDUP.U<esize> Qd, Rn, #imm: Elem[Qd, e] = R[n] + e * imm; returns (Qd, R[n] + lanes
    * imm), the written-back Rn (every element counts, predicated or not)."""
    lanes = 128 // esize
    return ((merge(qd[0], _vidup_beat(rn, 0, imm, esize), beat_mask(mask, 0)),
             merge(qd[1], _vidup_beat(rn, 1, imm, esize), beat_mask(mask, 1)),
             merge(qd[2], _vidup_beat(rn, 2, imm, esize), beat_mask(mask, 2)),
             merge(qd[3], _vidup_beat(rn, 3, imm, esize), beat_mask(mask, 3))),
            s32(rn + lanes * imm))


# --- widening and narrowing moves ----------------------------------------------------------

@jit
def _vmovl_beat(m, esize, top):
    word = 0
    for j in range(16 // esize):
        word |= (element(m, 2 * j + top, esize) & ((1 << (2 * esize)) - 1)) << (2 * esize * j)
    return s32(word)


@jit
def VMOVL(qm, qd, esize, top, mask):
    """VMOVLB.S<esize> (top=0) / VMOVLT.S<esize> (top=1) Qd, Qm: element j of 2*esize bits =
    SInt(Elem[Qm, 2j + top, esize]) (the even or the odd elements, sign-extended)."""
    return (merge(qd[0], _vmovl_beat(qm[0], esize, top), beat_mask(mask, 0)),
            merge(qd[1], _vmovl_beat(qm[1], esize, top), beat_mask(mask, 1)),
            merge(qd[2], _vmovl_beat(qm[2], esize, top), beat_mask(mask, 2)),
            merge(qd[3], _vmovl_beat(qm[3], esize, top), beat_mask(mask, 3)))


@jit
def _vmovn_beat(d, m, esize, top):
    for j in range(16 // esize):
        d = with_element(d, 2 * j + top, esize, uelement(m, j, 2 * esize))
    return d


@jit
def VMOVN(qm, qd, esize, top, mask):
    """VMOVNB.I<2*esize> (top=0) / VMOVNT (top=1) Qd, Qm: the low esize bits of element j
    of Qm (2*esize bits) into element 2j + top of Qd; the other elements of Qd are kept."""
    return (merge(qd[0], _vmovn_beat(qd[0], qm[0], esize, top), beat_mask(mask, 0)),
            merge(qd[1], _vmovn_beat(qd[1], qm[1], esize, top), beat_mask(mask, 1)),
            merge(qd[2], _vmovn_beat(qd[2], qm[2], esize, top), beat_mask(mask, 2)),
            merge(qd[3], _vmovn_beat(qd[3], qm[3], esize, top), beat_mask(mask, 3)))


# --- across-vector reductions -------------------------------------------------------------

@jit
def _dot_beat(n, m, esize, mask4, exchange):
    total = 0
    for e in range(32 // esize):
        if active(mask4, e, esize):
            partner = (e ^ 1) if exchange else e
            total += element(n, partner, esize) * element(m, e, esize)
    return total


@jit
def _dot(qn, qm, esize, mask, exchange):
    return (_dot_beat(qn[0], qm[0], esize, beat_mask(mask, 0), exchange)
            + _dot_beat(qn[1], qm[1], esize, beat_mask(mask, 1), exchange)
            + _dot_beat(qn[2], qm[2], esize, beat_mask(mask, 2), exchange)
            + _dot_beat(qn[3], qm[3], esize, beat_mask(mask, 3), exchange))


@jit
def VMLADAV(rda, qn, qm, esize, exchange, mask):
    """VMLADAVA{X}.S<esize> Rda, Qn, Qm (alias VMLAVA): R[da] + sum over the active elements
    of SInt(Elem[Qn, e']) * SInt(Elem[Qm, e]), e' = e (e XOR 1 with X), modulo 2**32.
    Without accumulation (VMLADAV / VMLAV) pass rda = 0."""
    return s32(rda + _dot(qn, qm, esize, mask, exchange))


@jit
def VMLALDAV(rdalo, rdahi, qn, qm, esize, exchange, mask):
    """VMLALDAVA{X}.S<esize> RdaLo, RdaHi, Qn, Qm (alias VMLALVA): the 64-bit RdaHi:RdaLo +
    sum of the active products; (lo, hi)."""
    return _accumulate64(rdalo, rdahi, _dot(qn, qm, esize, mask, exchange))


@jit
def _sum_beat(m, esize, mask4):
    total = 0
    for e in range(32 // esize):
        if active(mask4, e, esize):
            total += element(m, e, esize)
    return total


@jit
def VADDV(rda, qm, esize, mask):
    """VADDVA.S<esize> Rda, Qm: R[da] + sum of the active SInt(Elem[Qm, e]), modulo 2**32.
    VADDV (no accumulation): rda = 0."""
    return s32(rda + _sum_beat(qm[0], esize, beat_mask(mask, 0))
               + _sum_beat(qm[1], esize, beat_mask(mask, 1))
               + _sum_beat(qm[2], esize, beat_mask(mask, 2))
               + _sum_beat(qm[3], esize, beat_mask(mask, 3)))


# --- predicates -----------------------------------------------------------------------------

@jit
def condition_holds(a, b, cond):
    """The signed comparison `cond` (EQ NE GE LT GT LE) of a with b."""
    if cond == EQ:
        return a == b
    if cond == NE:
        return a != b
    if cond == GE:
        return a >= b
    if cond == LT:
        return a < b
    if cond == GT:
        return a > b
    return a <= b


@jit
def _vcmp_beat(n, m, esize, cond):
    bits = 0
    for e in range(32 // esize):
        if condition_holds(element(n, e, esize), element(m, e, esize), cond):
            bits |= ((1 << (esize >> 3)) - 1) << (e * (esize >> 3))
    return bits


@jit
def VCMP(qn, qm, esize, cond, mask):
    """VCMP.S<esize> <cond>, Qn, Qm: VPR.P0 with the bits of every byte of element e set
    when Elem[Qn, e] <cond> Elem[Qm, e], and cleared for predicated-false bytes."""
    return (_vcmp_beat(qn[0], qm[0], esize, cond)
            | _vcmp_beat(qn[1], qm[1], esize, cond) << 4
            | _vcmp_beat(qn[2], qm[2], esize, cond) << 8
            | _vcmp_beat(qn[3], qm[3], esize, cond) << 12) & mask


@jit
def VCMP_scalar(qn, rm, esize, cond, mask):
    """VCMP.S<esize> <cond>, Qn, Rm: as VCMP against SInt(R[m]<esize-1:0>)."""
    return VCMP(qn, _scalar(rm, esize), esize, cond, mask)


@jit
def VCTP(rn, esize, mask):
    """VCTP.<esize> Rn: VPR.P0 predicating the first UInt(R[n]) elements (all of them when
    R[n] >= lanes), ANDed with the current predicate."""
    return tail_mask(u32(rn), esize) & mask


# --- loads and stores ---------------------------------------------------------------------

@jit
def _vldr_beat(word, beat, image, msize, esize, unsigned, mask4):
    for e in range(32 // esize):
        if active(mask4, e, esize):
            index = beat * (32 // esize) + e             # element of the vector
            byte = index * (msize >> 3)
            raw = (image[byte >> 2] >> (8 * (byte & 3))) & ((1 << msize) - 1)
            if not unsigned:
                raw -= (raw >> (msize - 1)) << msize
            word = with_element(word, e, esize, raw)
        else:
            word = with_element(word, e, esize, 0)
    return word


@jit
def VLDR(image, msize, esize, unsigned, mask):
    """VLDR<B|H|W>.<S|U><esize> Qd, [...]: element e = Extend(memory element e of msize
    bits) for active elements, zero for predicated-false ones.  `image`: the memory image
    the load read (see the module docstring); the same assembly serves a gather."""
    if mask == ALL and msize == esize:              # the image is the register
        return (s32(image[0]), s32(image[1]), s32(image[2]), s32(image[3]))
    return (_vldr_beat(0, 0, image, msize, esize, unsigned, beat_mask(mask, 0)),
            _vldr_beat(0, 1, image, msize, esize, unsigned, beat_mask(mask, 1)),
            _vldr_beat(0, 2, image, msize, esize, unsigned, beat_mask(mask, 2)),
            _vldr_beat(0, 3, image, msize, esize, unsigned, beat_mask(mask, 3)))


@jit
def _image_word(q, word_index, msize, esize):
    word = 0
    per_word = 32 // msize
    for k in range(per_word):
        index = word_index * per_word + k                 # memory element = vector element
        if index >= 128 // esize:
            break
        value = uelement(q[(index * esize) >> 5], index % (32 // esize), esize)
        word |= (value & ((1 << msize) - 1)) << (k * msize)
    return s32(word)


@jit
def VSTR_image(q, msize, esize):
    """VSTR<B|H|W>.<esize> Qd, [...]: the memory image, element e truncated to msize bits
    at byte e * msize / 8 (the first 16 * msize / esize bytes are meaningful)."""
    return (_image_word(q, 0, msize, esize), _image_word(q, 1, msize, esize),
            _image_word(q, 2, msize, esize), _image_word(q, 3, msize, esize))


@jit
def memory_byte_enables(mask, msize, esize):
    """The bytes of the memory image a contiguous load or store accesses: those of its
    active elements (bit i for byte i of the image)."""
    enables = 0
    lanes = 128 // esize
    for e in range(lanes):
        if (mask >> (e * (esize >> 3))) & 1:
            enables |= ((1 << (msize >> 3)) - 1) << (e * (msize >> 3))
    return enables


@jit
def gather_offset(qm, e, esize):
    """UInt(Elem[Qm, e, esize]): the byte offset of element e of a gather or scatter
    without scaling (VLDRB/VSTRB/VSTRH [Rn, Qm])."""
    return uelement(qm[(e * esize) >> 5], e % (32 // esize), esize)


@jit
def VLD2_offsets(pattern):
    """The byte offsets of the four words VLD2<pattern>.8 reads (one per beat); VLD20 and
    VLD21 together read 32 consecutive bytes."""
    if pattern == 0:
        return (0, 4, 24, 28)
    return (8, 12, 16, 20)


@jit
def _vld2_beat(qa, qb, offset, word):
    """Deinterleave one loaded word: bytes 0, 2 to Qa, bytes 1, 3 to Qb, at byte position
    offset / 2 of the registers."""
    for k in range(4):
        byte = (word >> (8 * k)) & 0xFF
        position = offset // 2 + (k >> 1)
        if k & 1:
            qb = with_byte(qb, position, byte)
        else:
            qa = with_byte(qa, position, byte)
    return qa, qb


@jit
def with_byte(q, position, byte):
    """Q with byte `position` (0..15) replaced by `byte`."""
    beat = position >> 2
    w = with_element(q[beat], position & 3, 8, byte)
    if beat == 0:
        return (w, q[1], q[2], q[3])
    if beat == 1:
        return (q[0], w, q[2], q[3])
    if beat == 2:
        return (q[0], q[1], w, q[3])
    return (q[0], q[1], q[2], w)


@jit
def VLD2(pattern, words, qa, qb):
    """VLD2<pattern>.8 {Qa, Qb}, [Rn]: deinterleaving load, part `pattern` (0 or 1) of two.
    `words` are the four words read at `VLD2_offsets(pattern)`; the even bytes of the 32
    go to Qa, the odd ones to Qb; the bytes the other pattern loads are kept.  Not
    predicated.  Returns (Qa, Qb)."""
    offsets = VLD2_offsets(pattern)
    for beat in range(4):
        qa, qb = _vld2_beat(qa, qb, offsets[beat], words[beat])
    return qa, qb


# --- lane moves ----------------------------------------------------------------------------

@jit
def _with_lane(q, lane, value):
    if lane == 0:
        return (s32(value), q[1], q[2], q[3])
    if lane == 1:
        return (q[0], s32(value), q[2], q[3])
    if lane == 2:
        return (q[0], q[1], s32(value), q[3])
    return (q[0], q[1], q[2], s32(value))


@jit
def VMOV_to_lanes(q, index, index2, rt, rt2):
    """VMOV Qd[index], Qd[index2], Rt, Rt2 (index = index2 + 2): two core registers into
    two 32-bit lanes.  As gas encodes this syntax and QEMU executes it, Rt goes to the lower
    lane index2 and Rt2 to lane index (CMSIS-NN only moves one register to both lanes,
    where the order does not matter)."""
    return _with_lane(_with_lane(q, index2, rt), index, rt2)


@jit
def VMOV_from_lane(q, lane):
    """VMOV Rt, Qn[lane] (32-bit lane; also VMOV Rt, Sn with Sn = Q[n DIV 4][n MOD 4])."""
    return q[lane]


@jit
def P0_from_register(rt):
    """VMSR P0, Rt: VPR.P0 = R[t]<15:0> (VMRS Rt, P0 reads it back zero-extended)."""
    return rt & 0xFFFF


# --- scalar Armv8.1-M ---------------------------------------------------------------------

@jit
def _shift64(lo, hi, shift):
    """The 64-bit value hi:lo shifted left by `shift` (negative: arithmetic right), modulo
    2**64; (lo, hi).  Computed on the 32-bit halves so that no value leaves int64."""
    lo, hi = u32(lo), u32(hi)
    if shift >= 64:
        return 0, 0
    if shift >= 32:
        return 0, s32(lo << (shift - 32))
    if shift > 0:
        return s32(lo << shift), s32((hi << shift) | (lo >> (32 - shift)))
    if shift == 0:
        return s32(lo), s32(hi)
    value = (s32(hi) << 32) | lo
    value >>= (63 if shift <= -64 else -shift)
    return s32(value & _MASK32), s32(value >> 32)


@jit
def ASRL(rdalo, rdahi, shift):
    """ASRL RdaLo, RdaHi, #shift (1..32) or Rm: RdaHi:RdaLo arithmetically shifted right by
    `shift`; for the register form pass SInt(R[m]<7:0>), a negative amount shifting left."""
    return _shift64(rdalo, rdahi, -shift)


@jit
def ASRL_register(rdalo, rdahi, rm):
    """ASRL RdaLo, RdaHi, Rm: shift right by SInt(R[m]<7:0>) (left when negative)."""
    return ASRL(rdalo, rdahi, ((rm & 0xFF) ^ 0x80) - 0x80)


@jit
def CSINC(rn, rm, condition_passed):
    """CSINC Rd, Rn, Rm, cond: R[n] if the condition passed else R[m] + 1 (CINC Rd, Rn, cond
    is CSINC Rd, Rn, Rn with the inverted condition: R[n] + 1 when cond holds)."""
    return s32(rn) if condition_passed else s32(rm + 1)


@jit
def CSNEG(rn, rm, condition_passed):
    """CSNEG Rd, Rn, Rm, cond: R[n] if the condition passed else -R[m] (CNEG Rd, Rn, cond
    is CSNEG Rd, Rn, Rn with the inverted condition: -R[n] when cond holds)."""
    return s32(rn) if condition_passed else s32(-rm)
