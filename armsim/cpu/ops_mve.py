"""Counted Armv8.1-M instructions: the MVE (Helium) and scalar v8.1-M instructions of
CMSIS-NN's MVE build, as `armsim.cpu.ops` does for the scalar and DSP ones.

Each op issues one instruction (its mnemonic of `instructions.ARMV81M_MNEMONICS` and the
class pair), applies the pure semantics of `armsim.cpu.isa_mve`, sets FPSCR.QC
(`machine.QC_FLAG`) when an active element saturated, and for memory instructions checks
and counts the memory an instruction touches (only its active elements: a predicated-false
element is not accessed, so a tail read past a buffer does not fault).

Kernel code reads like the disassembly, with Q registers as 4-tuples (isa_mve's docstring)
and the predicate as an explicit last argument ``p`` (``isa_mve.ALL`` when unpredicated;
inside a VPT block VPR.P0, in a tail-predicated loop ANDed with ``isa_mve.tail_mask``);
element-wise ops take the old destination first, since predicated-false bytes keep it::

    q0 = vldrb_s32(m, input, p)                  # VLDRB.S32 Q0, [R0]
    acc = vmlava_s8(m, acc, q0, q1, ALL)         # VMLAVA.S8 R2, Q0, Q1
    q2 = vqrdmulh_s32_r(m, q2, q2, mult, ALL)    # VQRDMULH.S32 Q2, Q2, R3

Op names are the disassembly's mnemonic with '.' as '_'; ``_r`` marks a vector-by-scalar
form (a core register operand), ``_gather`` / ``_scatter`` the vector-of-offsets addressing.
VPST, DLS, LE... only issue: predicates and loop control are the kernel's Python values.
Low-overhead loops count LE/LETP every iteration (as QEMU executes them; see
tools/mve_qemu/README.md for what a core with a loop cache does instead).

This module registers its ops in `ops.OPS` when imported (by the MVE kernel ports), so
runs that use no MVE instruction do not pay for building them.
"""
from . import isa_mve as v
from .instructions import CLASS_INDEX, CLASS_OF, MNEMONIC_INDEX
from .machine import QC_FLAG, STACK_BEATS, TAKEN, category_start
from .ops import _read_le, _record, _register, _traffic, _write_le, issue, locate
from .jit import jit

NAMES = []          # the ops this module registers, in order


def _ids(mnemonic, category):
    return (MNEMONIC_INDEX[mnemonic], CLASS_INDEX[CLASS_OF[mnemonic]],
            category_start(category))


def _add(name, mnemonic, body):
    NAMES.append(name)
    return _register(name, mnemonic, body)


# --- memory helpers ---------------------------------------------------------------------

@jit(inline="numba", cache=False)
def _span(enables):
    """First and one-past-last set bit of a 16-bit byte-enable mask (0, 0 when none)."""
    first = 0
    while first < 16 and not (enables >> first) & 1:
        first += 1
    if first == 16:
        return 0, 0
    last = 15
    while not (enables >> last) & 1:
        last -= 1
    return first, last + 1


@jit(inline="numba", cache=False)
def _read_image(mem, at0, first, end):
    """The memory image of bytes [first, end) read from mem[at0 + i]; zero elsewhere."""
    if first == 0 and end == 16:                     # a whole vector: four words
        return (v.s32(_read_le(mem, at0, 4)), v.s32(_read_le(mem, at0 + 4, 4)),
                v.s32(_read_le(mem, at0 + 8, 4)), v.s32(_read_le(mem, at0 + 12, 4)))
    w0, w1, w2, w3 = 0, 0, 0, 0
    for i in range(first, end):
        byte = int(mem[at0 + i]) << (8 * (i & 3))
        if i < 4:
            w0 |= byte
        elif i < 8:
            w1 |= byte
        elif i < 12:
            w2 |= byte
        else:
            w3 |= byte
    return (v.s32(w0), v.s32(w1), v.s32(w2), v.s32(w3))


# --- loads -----------------------------------------------------------------------------------

def _vldr(name, mnemonic, msize, esize, unsigned):
    """VLDR<B|H|W>.<dt> Qd, [Rn{, #imm}]: `address` is the effective address (a post- or
    pre-increment of Rn folds into the kernel's pointer arithmetic)."""
    index, cls, cat = _ids(mnemonic, "load")

    def op(m, address, p):
        block = issue(m, index, cls, cat)
        if p == v.ALL:
            first, end = 0, 16 * msize // esize
        else:
            first, end = _span(v.memory_byte_enables(p, msize, esize))    # active elements
        image = v.ZERO
        if end > first:
            region, at = locate(m, address + first, end - first, index)
            _traffic(m, block, region, 0, (end - first + 3) // 4, end - first)
            _record(m, region, address + first, end - first)
            image = _read_image(m.mem, at - first, first, end)
        return v.VLDR(image, msize, esize, unsigned, p)
    return _add(name, mnemonic, op)


vldrb_u8 = _vldr("vldrb_u8", "vldrb.u8", 8, 8, True)
vldrb_s16 = _vldr("vldrb_s16", "vldrb.s16", 8, 16, False)
vldrb_s32 = _vldr("vldrb_s32", "vldrb.s32", 8, 32, False)
vldrh_u16 = _vldr("vldrh_u16", "vldrh.u16", 16, 16, True)
vldrh_s32 = _vldr("vldrh_s32", "vldrh.s32", 16, 32, False)
vldrw_u32 = _vldr("vldrw_u32", "vldrw.u32", 32, 32, True)


def _gather(name, mnemonic, msize, esize, unsigned):
    """VLDRB.<dt> Qd, [Rn, Qm]: element e from Rn + UInt(Elem[Qm, e]) (not scaled), one
    memory access per active element."""
    index, cls, cat = _ids(mnemonic, "load")
    mbytes = msize // 8

    def op(m, base, qm, p):
        block = issue(m, index, cls, cat)
        image = v.ZERO
        for e in range(128 // esize):
            if (p >> (e * (esize >> 3))) & 1:
                address = base + v.gather_offset(qm, e, esize)
                region, at = locate(m, address, mbytes, index)
                _traffic(m, block, region, 0, 1, mbytes)
                _record(m, region, address, mbytes)
                value = _read_le(m.mem, at, mbytes)
                for k in range(mbytes):
                    image = v.with_byte(image, e * mbytes + k, (value >> (8 * k)) & 0xFF)
        return v.VLDR(image, msize, esize, unsigned, p)
    return _add(name, mnemonic, op)


vldrb_u8_gather = _gather("vldrb_u8_gather", "vldrb.u8.gather", 8, 8, True)
vldrb_u16_gather = _gather("vldrb_u16_gather", "vldrb.u16.gather", 8, 16, True)
vldrb_s32_gather = _gather("vldrb_s32_gather", "vldrb.s32.gather", 8, 32, False)


def _vld2(name, pattern):
    """VLD2<pattern>.8 {Qa, Qb}, [Rn]: returns (Qa, Qb); the writeback form's Rn += 32
    folds into the kernel's pointer arithmetic."""
    mnemonic = f"vld2{pattern}.8"
    index, cls, cat = _ids(mnemonic, "load")
    first = 0 if pattern == 0 else 8
    end = 32 if pattern == 0 else 24

    def op(m, address, qa, qb):
        block = issue(m, index, cls, cat)
        region, at = locate(m, address + first, end - first, index)
        _traffic(m, block, region, 0, 4, 16)
        _record(m, region, address + first, end - first)
        offsets = v.VLD2_offsets(pattern)
        at0 = at - first
        words = (v.s32(_read_le(m.mem, at0 + offsets[0], 4)),
                 v.s32(_read_le(m.mem, at0 + offsets[1], 4)),
                 v.s32(_read_le(m.mem, at0 + offsets[2], 4)),
                 v.s32(_read_le(m.mem, at0 + offsets[3], 4)))
        return v.VLD2(pattern, words, qa, qb)
    return _add(name, mnemonic, op)


vld20_8 = _vld2("vld20_8", 0)
vld21_8 = _vld2("vld21_8", 1)


# --- stores ----------------------------------------------------------------------------------

def _vstr(name, mnemonic, msize, esize):
    """VSTR<B|H|W>.<esize> Qd, [Rn{, #imm}]: the active elements, truncated to msize."""
    index, cls, cat = _ids(mnemonic, "store")

    def op(m, address, q, p):
        block = issue(m, index, cls, cat)
        enables = v.memory_byte_enables(p, msize, esize)
        first, end = _span(enables)
        if end > first:
            region, at = locate(m, address + first, end - first, index)
            _traffic(m, block, region, 3, (end - first + 3) // 4, end - first)
            image = v.VSTR_image(q, msize, esize)
            for i in range(first, end):
                if (enables >> i) & 1:
                    m.mem[at - first + i] = (image[i >> 2] >> (8 * (i & 3))) & 0xFF
    return _add(name, mnemonic, op)


vstrb_8 = _vstr("vstrb_8", "vstrb.8", 8, 8)
vstrb_16 = _vstr("vstrb_16", "vstrb.16", 8, 16)
vstrb_32 = _vstr("vstrb_32", "vstrb.32", 8, 32)
vstrh_16 = _vstr("vstrh_16", "vstrh.16", 16, 16)
vstrh_32 = _vstr("vstrh_32", "vstrh.32", 16, 32)
vstrw_32 = _vstr("vstrw_32", "vstrw.32", 32, 32)


def _scatter(name, mnemonic, msize, esize):
    """VSTR<B|H>.32 Qd, [Rn, Qm]: element e (truncated to msize) to Rn + UInt(Elem[Qm, e])."""
    index, cls, cat = _ids(mnemonic, "store")
    mbytes = msize // 8

    def op(m, base, qm, q, p):
        block = issue(m, index, cls, cat)
        for e in range(128 // esize):
            if (p >> (e * (esize >> 3))) & 1:
                address = base + v.gather_offset(qm, e, esize)
                region, at = locate(m, address, mbytes, index)
                _traffic(m, block, region, 3, 1, mbytes)
                _write_le(m.mem, at, mbytes, v.uelement(q[(e * esize) >> 5], e % (32 // esize),
                                                        esize))
    return _add(name, mnemonic, op)


vstrb_32_scatter = _scatter("vstrb_32_scatter", "vstrb.32.scatter", 8, 32)
vstrh_32_scatter = _scatter("vstrh_32_scatter", "vstrh.32.scatter", 16, 32)


# --- element-wise --------------------------------------------------------------------------

def _elementwise(name, mnemonic, sem, esize, category="alu"):
    """Qd = sem(Qn, Qm-or-Rm, old Qd, esize, p): ``op(m, qd, qn, qm, p)``."""
    index, cls, cat = _ids(mnemonic, category)

    def op(m, qd, qn, qm, p):
        issue(m, index, cls, cat)
        return sem(qn, qm, qd, esize, p)
    return _add(name, mnemonic, op)


def _saturating(name, mnemonic, sem, esize, category):
    """As `_elementwise`, setting FPSCR.QC when an active element saturated."""
    index, cls, cat = _ids(mnemonic, category)

    def op(m, qd, qn, qm, p):
        issue(m, index, cls, cat)
        result, qc = sem(qn, qm, qd, esize, p)
        m.st[QC_FLAG] |= qc
        return result
    return _add(name, mnemonic, op)


vadd_i16 = _elementwise("vadd_i16", "vadd.i16", v.VADD, 16)
vadd_i32 = _elementwise("vadd_i32", "vadd.i32", v.VADD, 32)
vadd_i32_r = _elementwise("vadd_i32_r", "vadd.i32", v.VADD_scalar, 32)
vsub_i32_r = _elementwise("vsub_i32_r", "vsub.i32", v.VSUB_scalar, 32)
vmul_i16 = _elementwise("vmul_i16", "vmul.i16", v.VMUL, 16, "mac")
vmul_i32 = _elementwise("vmul_i32", "vmul.i32", v.VMUL, 32, "mac")
vmul_i32_r = _elementwise("vmul_i32_r", "vmul.i32", v.VMUL_scalar, 32, "mac")
vmax_s8 = _elementwise("vmax_s8", "vmax.s8", v.VMAX, 8)
vmax_s16 = _elementwise("vmax_s16", "vmax.s16", v.VMAX, 16)
vmax_s32 = _elementwise("vmax_s32", "vmax.s32", v.VMAX, 32)
vmin_s8 = _elementwise("vmin_s8", "vmin.s8", v.VMIN, 8)
vmin_s16 = _elementwise("vmin_s16", "vmin.s16", v.VMIN, 16)
vmin_s32 = _elementwise("vmin_s32", "vmin.s32", v.VMIN, 32)
vshl_s32 = _elementwise("vshl_s32", "vshl.s32", v.VSHL, 32)          # VSHL Qd, Qm, Qn
vrshl_s32 = _elementwise("vrshl_s32", "vrshl.s32", v.VRSHL, 32)      # VRSHL Qd, Qm, Qn
vqadd_s32 = _saturating("vqadd_s32", "vqadd.s32", v.VQADD, 32, "saturate")
vqrdmulh_s32 = _saturating("vqrdmulh_s32", "vqrdmulh.s32", v.VQRDMULH, 32, "mac")
vqrdmulh_s32_r = _saturating("vqrdmulh_s32_r", "vqrdmulh.s32", v.VQRDMULH_scalar, 32, "mac")


def _vand_body():
    index, cls, cat = _ids("vand", "alu")

    def op(m, qd, qn, qm, p):
        issue(m, index, cls, cat)
        return v.VAND(qn, qm, qd, p)
    return op


vand = _add("vand", "vand", _vand_body())


def _vmov_body():
    index, cls, cat = _ids("vmov", "alu")

    def op(m, qd, qm, p):
        """VMOV Qd, Qm (VORR Qd, Qm, Qm)."""
        issue(m, index, cls, cat)
        return v.VORR(qm, qm, qd, p)
    return op


vmov = _add("vmov", "vmov", _vmov_body())


def _shift_scalar(name, mnemonic, sem, esize):
    """V(R)SHL.S<esize> Qda, Rm: ``op(m, qda, rm, p)``."""
    index, cls, cat = _ids(mnemonic, "alu")

    def op(m, qda, rm, p):
        issue(m, index, cls, cat)
        return sem(qda, rm, esize, p)
    return _add(name, mnemonic, op)


vshl_s32_r = _shift_scalar("vshl_s32_r", "vshl.s32", v.VSHL_scalar, 32)
vrshl_s8_r = _shift_scalar("vrshl_s8_r", "vrshl.s8", v.VRSHL_scalar, 8)
vrshl_s32_r = _shift_scalar("vrshl_s32_r", "vrshl.s32", v.VRSHL_scalar, 32)


def _vshr(name, mnemonic, esize):
    """VSHR.S<esize> Qd, Qm, #imm: ``op(m, qd, qm, imm, p)``."""
    index, cls, cat = _ids(mnemonic, "alu")

    def op(m, qd, qm, imm, p):
        issue(m, index, cls, cat)
        return v.VSHR(qm, qd, imm, esize, p)
    return _add(name, mnemonic, op)


vshr_s8 = _vshr("vshr_s8", "vshr.s8", 8)
vshr_s32 = _vshr("vshr_s32", "vshr.s32", 32)


def _vdup(name, mnemonic, esize):
    """VDUP.<esize> Qd, Rt: ``op(m, qd, rt, p)``."""
    index, cls, cat = _ids(mnemonic, "alu")

    def op(m, qd, rt, p):
        issue(m, index, cls, cat)
        return v.VDUP(rt, qd, esize, p)
    return _add(name, mnemonic, op)


vdup_8 = _vdup("vdup_8", "vdup.8", 8)
vdup_16 = _vdup("vdup_16", "vdup.16", 16)
vdup_32 = _vdup("vdup_32", "vdup.32", 32)


def _vidup_body():
    index, cls, cat = _ids("vidup.u16", "alu")

    def op(m, qd, rn, imm, p):
        """VIDUP.U16 Qd, Rn, #imm: returns (Qd, written-back Rn)."""
        issue(m, index, cls, cat)
        return v.VIDUP(rn, imm, qd, 16, p)
    return op


vidup_u16 = _add("vidup_u16", "vidup.u16", _vidup_body())


def _vmovl(name, mnemonic, esize, top):
    """VMOVL<B|T>.S<esize> Qd, Qm: ``op(m, qd, qm, p)``."""
    index, cls, cat = _ids(mnemonic, "unpack")

    def op(m, qd, qm, p):
        issue(m, index, cls, cat)
        return v.VMOVL(qm, qd, esize, top, p)
    return _add(name, mnemonic, op)


def _vmovn(name, mnemonic, esize, top):
    """VMOVN<B|T>.I<2*esize> Qd, Qm: ``op(m, qd, qm, p)``."""
    index, cls, cat = _ids(mnemonic, "unpack")

    def op(m, qd, qm, p):
        issue(m, index, cls, cat)
        return v.VMOVN(qm, qd, esize, top, p)
    return _add(name, mnemonic, op)


vmovlb_s8 = _vmovl("vmovlb_s8", "vmovlb.s8", 8, 0)
vmovlt_s8 = _vmovl("vmovlt_s8", "vmovlt.s8", 8, 1)
vmovlb_s16 = _vmovl("vmovlb_s16", "vmovlb.s16", 16, 0)
vmovlt_s16 = _vmovl("vmovlt_s16", "vmovlt.s16", 16, 1)
vmovnb_i16 = _vmovn("vmovnb_i16", "vmovnb.i16", 8, 0)
vmovnt_i16 = _vmovn("vmovnt_i16", "vmovnt.i16", 8, 1)
vmovnb_i32 = _vmovn("vmovnb_i32", "vmovnb.i32", 16, 0)
vmovnt_i32 = _vmovn("vmovnt_i32", "vmovnt.i32", 16, 1)


def _vpsel_body():
    index, cls, cat = _ids("vpsel", "alu")

    def op(m, qn, qm, p0):
        """VPSEL Qd, Qn, Qm: byte-wise select by VPR.P0 (`p0`)."""
        issue(m, index, cls, cat)
        return v.VPSEL(qn, qm, p0)
    return op


vpsel = _add("vpsel", "vpsel", _vpsel_body())


# --- reductions -------------------------------------------------------------------------------

def _vmladav(name, mnemonic, esize):
    """VMLAVA.S<esize> Rda, Qn, Qm (VMLADAVA): ``acc = op(m, acc, qn, qm, p)``."""
    index, cls, cat = _ids(mnemonic, "mac")

    def op(m, rda, qn, qm, p):
        issue(m, index, cls, cat)
        return v.VMLADAV(rda, qn, qm, esize, False, p)
    return _add(name, mnemonic, op)


vmlava_s8 = _vmladav("vmlava_s8", "vmlava.s8", 8)
vmlava_s16 = _vmladav("vmlava_s16", "vmlava.s16", 16)
vmlava_s32 = _vmladav("vmlava_s32", "vmlava.s32", 32)


def _vmlalva_body():
    index, cls, cat = _ids("vmlalva.s16", "mac")

    def op(m, rdalo, rdahi, qn, qm, p):
        """VMLALVA.S16 RdaLo, RdaHi, Qn, Qm (VMLALDAVA): returns (lo, hi)."""
        issue(m, index, cls, cat)
        return v.VMLALDAV(rdalo, rdahi, qn, qm, 16, False, p)
    return op


vmlalva_s16 = _add("vmlalva_s16", "vmlalva.s16", _vmlalva_body())


def _vaddva_body():
    index, cls, cat = _ids("vaddva.s8", "mac")

    def op(m, rda, qm, p):
        """VADDVA.S8 Rda, Qm."""
        issue(m, index, cls, cat)
        return v.VADDV(rda, qm, 8, p)
    return op


def _vaddv_body():
    index, cls, cat = _ids("vaddv.s8", "mac")

    def op(m, qm, p):
        """VADDV.S8 Rd, Qm."""
        issue(m, index, cls, cat)
        return v.VADDV(0, qm, 8, p)
    return op


vaddva_s8 = _add("vaddva_s8", "vaddva.s8", _vaddva_body())
vaddv_s8 = _add("vaddv_s8", "vaddv.s8", _vaddv_body())


# --- predication --------------------------------------------------------------------------------

def _vcmp_body():
    index, cls, cat = _ids("vcmp.s32", "alu")

    def op(m, qn, rm, cond, p):
        """VCMP.S32 <cond>, Qn, Rm: returns VPR.P0 (`cond`: isa_mve.GT ...)."""
        issue(m, index, cls, cat)
        return v.VCMP_scalar(qn, rm, 32, cond, p)
    return op


vcmp_s32_r = _add("vcmp_s32_r", "vcmp.s32", _vcmp_body())


def _vctp(name, mnemonic, esize):
    """VCTP.<esize> Rn: returns VPR.P0 (the first Rn elements, ANDed with `p`)."""
    index, cls, cat = _ids(mnemonic, "alu")

    def op(m, rn, p):
        issue(m, index, cls, cat)
        return v.VCTP(rn, esize, p)
    return _add(name, mnemonic, op)


vctp_8 = _vctp("vctp_8", "vctp.8", 8)
vctp_16 = _vctp("vctp_16", "vctp.16", 16)
vctp_32 = _vctp("vctp_32", "vctp.32", 32)


def _issue_only(name, mnemonic, category):
    """An instruction whose effect is the kernel's Python state (VPST arms the predicate
    the kernel passes on; DLS sets the loop count the kernel's loop holds)."""
    index, cls, cat = _ids(mnemonic, category)

    def op(m):
        issue(m, index, cls, cat)
    return _add(name, mnemonic, op)


vpst = _issue_only("vpst", "vpst", "alu")
dls = _issue_only("dls", "dls", "alu")


def _vmsr_body():
    index, cls, cat = _ids("vmsr", "alu")

    def op(m, rt):
        """VMSR P0, Rt: returns VPR.P0."""
        issue(m, index, cls, cat)
        return v.P0_from_register(rt)
    return op


def _vmrs_body():
    index, cls, cat = _ids("vmrs", "alu")

    def op(m, p0):
        """VMRS Rt, P0: returns the register value."""
        issue(m, index, cls, cat)
        return v.P0_from_register(p0)
    return op


vmsr = _add("vmsr", "vmsr", _vmsr_body())
vmrs = _add("vmrs", "vmrs", _vmrs_body())


# --- lane moves -----------------------------------------------------------------------------

def _vmov_32_body():
    index, cls, cat = _ids("vmov.32", "alu")

    def op(m, q, lane):
        """VMOV.32 Rt, Dn[x] / VMOV Rt, Sn: 32-bit lane `lane` (0..3) of Q."""
        issue(m, index, cls, cat)
        return v.VMOV_from_lane(q, lane)
    return op


def _vmov_rr_body():
    index, cls, cat = _ids("vmov.rr", "alu")

    def op(m, q, lane, lane2, rt, rt2):
        """VMOV Qd[lane], Qd[lane2], Rt, Rt2."""
        issue(m, index, cls, cat)
        return v.VMOV_to_lanes(q, lane, lane2, rt, rt2)
    return op


vmov_32 = _add("vmov_32", "vmov.32", _vmov_32_body())
vmov_rr = _add("vmov_rr", "vmov.rr", _vmov_rr_body())


# --- low-overhead loops --------------------------------------------------------------------------

def _loop_branch(name, mnemonic):
    """LE / LETP (taken: another iteration) and WLSTP (taken: no iteration at all, the
    loop is skipped): ``op(m, taken)``."""
    index, cls, cat = _ids(mnemonic, "alu")

    def op(m, taken):
        block = issue(m, index, cls, cat)
        m.st[block + TAKEN] += taken
    return _add(name, mnemonic, op)


le = _loop_branch("le", "le")
letp = _loop_branch("letp", "letp")
wlstp_8 = _loop_branch("wlstp_8", "wlstp.8")
wlstp_16 = _loop_branch("wlstp_16", "wlstp.16")
wlstp_32 = _loop_branch("wlstp_32", "wlstp.32")


# --- FP-register stack and literal traffic ---------------------------------------------------

def _vstack(name, mnemonic):
    """VPUSH / VPOP {d8-d15}: `dregs` 64-bit registers to or from the stack (2 words each)."""
    index, cls, cat = _ids(mnemonic, "call")

    def op(m, dregs):
        block = issue(m, index, cls, cat)
        m.st[block + STACK_BEATS] += 2 * dregs
    return _add(name, mnemonic, op)


vpush = _vstack("vpush", "vpush")
vpop = _vstack("vpop", "vpop")
vldr_lit = _issue_only("vldr_lit", "vldr", "load")       # VLDR Dd, [pc, #imm]: a constant
vldr_spill = _issue_only("vldr_spill", "vldr", "call")   # VLDR Sd, [sp, #imm]: a spilled lane


# --- scalar Armv8.1-M --------------------------------------------------------------------------

def _asrl_body(register):
    index, cls, cat = _ids("asrl", "alu")
    if register:
        def op(m, rdalo, rdahi, rm):
            """ASRL RdaLo, RdaHi, Rm: returns (lo, hi)."""
            issue(m, index, cls, cat)
            return v.ASRL_register(rdalo, rdahi, rm)
    else:
        def op(m, rdalo, rdahi, shift):
            """ASRL RdaLo, RdaHi, #shift: returns (lo, hi)."""
            issue(m, index, cls, cat)
            return v.ASRL(rdalo, rdahi, shift)
    return op


asrl = _add("asrl", "asrl", _asrl_body(False))
asrl_r = _add("asrl_r", "asrl", _asrl_body(True))


def _conditional(name, mnemonic):
    index, cls, cat = _ids(mnemonic, "alu")
    if mnemonic == "csneg":
        def op(m, rn, rm, holds):
            """CSNEG Rd, Rn, Rm, cond: `holds` is the condition's outcome."""
            issue(m, index, cls, cat)
            return v.CSNEG(rn, rm, holds)
    elif mnemonic == "cinc":
        def op(m, rn, holds):
            """CINC Rd, Rn, cond (CSINC Rd, Rn, Rn, invert(cond)): Rn + 1 if cond holds."""
            issue(m, index, cls, cat)
            return v.CSINC(rn, rn, not holds)
    else:
        def op(m, rn, holds):
            """CNEG Rd, Rn, cond (CSNEG Rd, Rn, Rn, invert(cond)): -Rn if cond holds."""
            issue(m, index, cls, cat)
            return v.CSNEG(rn, rn, not holds)
    return _add(name, mnemonic, op)


csneg = _conditional("csneg", "csneg")
cinc = _conditional("cinc", "cinc")
cneg = _conditional("cneg", "cneg")
