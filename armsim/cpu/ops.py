"""Counted instructions: what kernel code calls to execute an instruction on a `Machine`.

Each op issues one instruction (counts its mnemonic and the class pair it forms with the
previous instruction), applies the pure semantics from `armsim.cpu.isa`, updates Q/GE, and
for memory instructions checks the address against the machine's regions and counts the
traffic per region.  One body serves every use: the traced run calls ``OPS[name].body`` as
plain Python (`armsim.cpu.kernel` swaps it in); the counted run compiles the module-level
name (the same function, registered with numba's ``register_jitable``) once per process and
signature, linked into each kernel that calls it, without the CPython and cfunc wrappers a
dispatcher builds (which cut the first run's compile time by a third);
``OPS[name].fast`` is a compiled copy for calling one op from Python.

Kernel code reads like the compiled C: ``sum = smlad(m, a, b, sum)`` is ``SMLAD``;
pointer post-increments fold into the load/store (``LDR r0, [r1], #4``) and are not
separate instructions; loop bookkeeping is issued explicitly (``cmp``, ``bcc``).

Fitted instructions -- stack traffic and bookkeeping whose *number* was calibrated against
measured per-function counts rather than transcribed from the C or a disassembly -- are
issued through ``fitted_<op>(m)`` (``fitted_ldr_sp``, ``fitted_mov``, ...): the same mnemonic,
class and timing as ``<op>``, no operands (their values never mattered), and also counted
in the machine's FITTED block, so traces, tables and JSON can tell them apart.
"""
from numba import types
from numba.extending import overload, register_jitable

from . import isa
from .instructions import CLASS_INDEX, CLASS_OF, MNEMONIC_INDEX
from .machine import (FAULT_ADDRESS, FAULT_MNEMONIC, FAULTED, FITTED, GE_FLAGS, GRANULE_SHIFT,
                      IT_FAILED, MULTIPLE_BEATS, PAIRS, PREV_CLASS, Q_FLAG, REGION_BASE,
                      REGION_FIELDS, STACK_BEATS, STACK_LOADS, TAKEN, TRACE_COUNT,
                      TRACE_HEADER, TRACE_LAST, Machine, MemoryFault, category_start,
                      region_index)
from .instructions import N_CLASSES
from .jit import jit

_NFIELDS = len(REGION_FIELDS)


class Op:
    """One counted instruction: its mnemonic, Python body and compiled copy (for Python
    callers); `fitted` for the issue-only twins of calibrated bookkeeping (see the module
    docstring)."""

    def __init__(self, name, mnemonic, body, fitted=False):
        self.name = name
        self.mnemonic = mnemonic
        self.body = body
        self.fitted = fitted
        self.fast = jit(body, cache=False)


OPS = {}


def _register(name, mnemonic, body, fitted=False, forceinline=False):
    op = Op(name, mnemonic, body, fitted)
    OPS[name] = op
    return register_jitable(no_cfunc_wrapper=True, forceinline=forceinline)(body)


@jit(inline="numba", cache=False)
def issue(m, index, cls, block):
    """Count one instruction of mnemonic `index` and timing class `cls` in the block of its
    op's category (`block`, a constant: `machine.category_start`) of the current code
    region's row; returns `block`, where the op adds what else it counts."""
    st = m.st
    st[block + index] += 1
    st[block + PAIRS + st[PREV_CLASS] * N_CLASSES + cls] += 1
    st[PREV_CLASS] = cls
    return block


_MAC = {"mul", "mla", "mls", "smull", "umull", "smlal", "umlal", "smmul", "smmulr", "smmla",
        "smulbb", "smulbt", "smultb", "smultt", "smlabb", "smlabt", "smlatb", "smlatt",
        "smlalbb", "smlalbt", "smlaltb", "smlaltt", "smlad", "smladx", "smlsd", "smuad",
        "smusd", "smlald"}
_UNPACK = {"sxtb", "sxth", "uxtb", "uxth", "sxtab", "sxtah", "sxtb16", "uxtb16", "sxtab16",
           "uxtab16", "pkhbt", "pkhtb", "rev", "rev16", "ror", "ubfx", "sbfx", "bfi"}
_SATURATE = {"ssat", "usat", "ssat16", "usat16", "qadd", "qsub", "qdadd", "qdsub", "qadd16",
             "qsub16", "qadd8", "qsub8"}
_CALL = {"bl", "bx", "blx", "push", "pop"}


def category_of(name, mnemonic):
    """The stage category (`machine.CATEGORIES`) of op `name` issuing `mnemonic`."""
    if name.startswith("fitted_"):
        return "fitted"
    if mnemonic in _CALL or name.endswith("_sp"):
        return "call"
    if mnemonic in _MAC:
        return "mac"
    if mnemonic in _UNPACK:
        return "unpack"
    if mnemonic in _SATURATE:
        return "saturate"
    if CLASS_OF[mnemonic] in ("ld1", "ldrd", "ldm"):
        return "load"
    if CLASS_OF[mnemonic] in ("st1", "strd", "stm"):
        return "store"
    return "alu"


def _ids(mnemonic, name=None):
    """Mnemonic index, class index and category block start of op `name`."""
    return (MNEMONIC_INDEX[mnemonic], CLASS_INDEX[CLASS_OF[mnemonic]],
            category_start(category_of(name or mnemonic, mnemonic)))


@jit(inline="numba", cache=False)
def enter_region(m, region):
    """A Machine whose ops count in code region `region` (`IM2COL`, `REQUANTIZE`: a row of
    `m.regions`), carrying `m`'s flags and previous instruction class; hand them back with
    `leave_region(m, inner)`.  Not an instruction: it only steers the counting.  The code
    inside uses the returned machine:  ``m = enter_region(outer, REQUANTIZE)``."""
    st = m.regions[region]
    st[Q_FLAG] = m.st[Q_FLAG]
    st[GE_FLAGS] = m.st[GE_FLAGS]
    st[PREV_CLASS] = m.st[PREV_CLASS]
    return Machine(st, m.mem, m.rtab, m.dsp, m.armclang, m.trace, m.single_rounding, m.regions)


@jit(inline="numba", cache=False)
def leave_region(m, inner):
    m.st[Q_FLAG] = inner.st[Q_FLAG]
    m.st[GE_FLAGS] = inner.st[GE_FLAGS]
    m.st[PREV_CLASS] = inner.st[PREV_CLASS]


IM2COL = region_index("im2col")
REQUANTIZE = region_index("requantize")


# --- register-to-register instructions --------------------------------------------------

def _plain(mnemonic, sem, name=None):
    index, cls, cat = _ids(mnemonic, name)

    def op(m, *operands):
        issue(m, index, cls, cat)
        return sem(*operands)
    return _register(name or mnemonic, mnemonic, op)


def _sets_q(mnemonic, sem, name=None):
    index, cls, cat = _ids(mnemonic, name)

    def op(m, *operands):
        issue(m, index, cls, cat)
        result, q = sem(*operands)
        m.st[Q_FLAG] |= q
        return result
    return _register(name or mnemonic, mnemonic, op)


def _sets_ge(mnemonic, sem):
    index, cls, cat = _ids(mnemonic)

    def op(m, rn, rm):
        issue(m, index, cls, cat)
        result, ge = sem(rn, rm)
        m.st[GE_FLAGS] = ge
        return result
    return _register(mnemonic, mnemonic, op)


def _no_result(mnemonic, name=None):
    """An instruction whose only effect that matters here is its issue slot (CMP, TST,
    IT, NOP): flags steer branches, and branches are decided by the Python control flow."""
    index, cls, cat = _ids(mnemonic, name)

    def op(m, *operands):
        issue(m, index, cls, cat)
    return _register(name or mnemonic, mnemonic, op)


add = _plain("add", isa.ADD)
sub = _plain("sub", isa.SUB)
rsb = _plain("rsb", isa.RSB)
and_ = _plain("and", isa.AND, "and_")
orr = _plain("orr", isa.ORR)
eor = _plain("eor", isa.EOR)
bic = _plain("bic", isa.BIC)
mvn = _plain("mvn", isa.MVN)
mov = _plain("mov", isa.MOV)
clz = _plain("clz", isa.CLZ)
lsl = _plain("lsl", isa.LSL)
lsr = _plain("lsr", isa.LSR)
asr = _plain("asr", isa.ASR)
ror = _plain("ror", isa.ROR)
cmp = _no_result("cmp")
tst = _no_result("tst")
teq = _no_result("teq")


def _it_body():
    index, cls, cat = _ids("it")

    def op(m, failed=0):
        """IT: `failed` is how many instructions of this IT block have a failing condition
        this time: they are not executed (not counted as instructions) but each still takes
        an issue slot, which the cycle models price."""
        block = issue(m, index, cls, cat)
        m.st[block + IT_FAILED] += failed
    return op


it = _register("it", "it", _it_body())
nop = _no_result("nop")

mul = _plain("mul", isa.MUL)
mla = _plain("mla", isa.MLA)
mls = _plain("mls", isa.MLS)
smull = _plain("smull", isa.SMULL)
umull = _plain("umull", isa.UMULL)
smlal = _plain("smlal", isa.SMLAL)
umlal = _plain("umlal", isa.UMLAL)
smmul = _plain("smmul", isa.SMMUL)
smmulr = _plain("smmulr", isa.SMMULR, "smmulr")
smmla = _plain("smmla", isa.SMMLA)
smulbb = _plain("smulbb", isa.SMULBB)
smulbt = _plain("smulbt", isa.SMULBT)
smultb = _plain("smultb", isa.SMULTB)
smultt = _plain("smultt", isa.SMULTT)
smlabb = _sets_q("smlabb", isa.SMLABB)
smlabt = _sets_q("smlabt", isa.SMLABT)
smlatb = _sets_q("smlatb", isa.SMLATB)
smlatt = _sets_q("smlatt", isa.SMLATT)
smlalbb = _plain("smlalbb", isa.SMLALBB)
smlalbt = _plain("smlalbt", isa.SMLALBT)
smlaltb = _plain("smlaltb", isa.SMLALTB)
smlaltt = _plain("smlaltt", isa.SMLALTT)

smlad = _sets_q("smlad", isa.SMLAD)
smladx = _sets_q("smladx", isa.SMLADX)
smlsd = _sets_q("smlsd", isa.SMLSD)
smuad = _sets_q("smuad", isa.SMUAD)
smusd = _plain("smusd", isa.SMUSD)
smlald = _plain("smlald", isa.SMLALD)

sxtb = _plain("sxtb", isa.SXTB)
sxth = _plain("sxth", isa.SXTH)
uxtb = _plain("uxtb", isa.UXTB)
uxth = _plain("uxth", isa.UXTH)
sxtab = _plain("sxtab", isa.SXTAB)
sxtah = _plain("sxtah", isa.SXTAH)
sxtb16 = _plain("sxtb16", isa.SXTB16)
uxtb16 = _plain("uxtb16", isa.UXTB16)
sxtab16 = _plain("sxtab16", isa.SXTAB16)
uxtab16 = _plain("uxtab16", isa.UXTAB16)
pkhbt = _plain("pkhbt", isa.PKHBT)
pkhtb = _plain("pkhtb", isa.PKHTB)
rev = _plain("rev", isa.REV)
rev16 = _plain("rev16", isa.REV16)

ssat = _sets_q("ssat", isa.SSAT)
ssat_asr = _sets_q("ssat", isa.SSAT_ASR, "ssat_asr")
usat = _sets_q("usat", isa.USAT)
usat_asr = _sets_q("usat", isa.USAT_ASR, "usat_asr")
ssat16 = _sets_q("ssat16", isa.SSAT16)
usat16 = _sets_q("usat16", isa.USAT16)
qadd = _sets_q("qadd", isa.QADD)
qsub = _sets_q("qsub", isa.QSUB)
qdadd = _sets_q("qdadd", isa.QDADD)
qdsub = _sets_q("qdsub", isa.QDSUB)
qadd16 = _plain("qadd16", isa.QADD16)
qsub16 = _plain("qsub16", isa.QSUB16)
qadd8 = _plain("qadd8", isa.QADD8)
qsub8 = _plain("qsub8", isa.QSUB8)
sadd16 = _sets_ge("sadd16", isa.SADD16)
ssub16 = _sets_ge("ssub16", isa.SSUB16)
sadd8 = _sets_ge("sadd8", isa.SADD8)
ssub8 = _sets_ge("ssub8", isa.SSUB8)
uadd8 = _sets_ge("uadd8", isa.UADD8)
usub8 = _sets_ge("usub8", isa.USUB8)

sdiv = _plain("sdiv", isa.SDIV)
udiv = _plain("udiv", isa.UDIV)


def _sel_body():
    index, cls, cat = _ids("sel")

    def op(m, rn, rm):
        issue(m, index, cls, cat)
        return isa.SEL(rn, rm, m.st[GE_FLAGS])
    return op


sel = _register("sel", "sel", _sel_body())


# --- carry chain and bitfields: the 64-bit arithmetic of compiled C (int64_t) -------------
# The carry flag is not part of the machine state: the kernel passes the carry its own
# preceding ADDS/SUBS produced (see `carry_of_add`, `carry_of_sub`).

@jit
def carry_of_add(rn, rm):
    """The C flag of ADDS R[n], R[m] (unsigned carry out), not an instruction."""
    return (isa.u32(rn) + isa.u32(rm)) >> 32


@jit
def carry_of_sub(rn, rm):
    """The C flag of SUBS/CMP R[n], R[m] (NOT borrow), not an instruction."""
    return 1 if isa.u32(rn) >= isa.u32(rm) else 0


adc = _plain("adc", isa.ADC)
sbc = _plain("sbc", isa.SBC)
ubfx = _plain("ubfx", isa.UBFX)
sbfx = _plain("sbfx", isa.SBFX)
cmn = _no_result("cmn")


# --- memory ------------------------------------------------------------------------------

@jit(inline="numba", cache=False)
def locate(m, address, nbytes, index):
    """Region number and backing-store offset of [address, address + nbytes); a simulated
    HardFault (MemoryFault) when no region holds it."""
    rtab = m.rtab
    for r in range(rtab.shape[0]):
        offset = address - rtab[r, 0]
        if offset >= 0 and offset + nbytes <= rtab[r, 1]:
            return r, rtab[r, 2] + offset
    m.st[FAULT_ADDRESS] = address
    m.st[FAULT_MNEMONIC] = index
    m.st[FAULTED] = 1
    raise MemoryFault("simulated HardFault")


@jit(inline="numba", cache=False)
def _read_le(mem, at, nbytes):
    value = 0
    for i in range(nbytes):
        value |= int(mem[at + i]) << (8 * i)
    return value


@jit(inline="numba", cache=False)
def _write_le(mem, at, nbytes, value):
    for i in range(nbytes):
        mem[at + i] = (value >> (8 * i)) & 0xFF


@jit(inline="numba", cache=False)
def _traffic(m, block, region, field, beats, nbytes):
    base = block + REGION_BASE + region * _NFIELDS + field
    m.st[base] += 1
    m.st[base + 1] += beats
    m.st[base + 2] += nbytes


@register_jitable(inline="always")
def _append_granules(trace, traced, first, last):
    """Append a load's `first` and `last` granule (no load spans more than two) to the load
    trace when `traced`, each unless it repeats the previous traced granule.
    ``TRACE_COUNT`` counts the appends; those past the capacity are dropped, and
    `machine.load_trace` reports them.  Untraced loads and repeats of the last granule (most
    loads) only test and branch.  (Before a `Machine` went uncounted by numba's reference
    counting, `jit._BorrowedMachineModel`, these branches cost out-of-line NRT calls and the
    recording was branch-free; branching is now 1.2-2x faster, measured with
    benchmarks/bench_machine.py --trace-loads --helpers, where every load appends.)"""
    if traced:
        previous = trace[TRACE_LAST]
        if first != previous or last != first:
            capacity = trace.shape[0] - TRACE_HEADER
            n = trace[TRACE_COUNT]
            if first != previous:
                if n < capacity:
                    trace[TRACE_HEADER + n] = first
                n += 1
            if last != first:
                if n < capacity:
                    trace[TRACE_HEADER + n] = last
                n += 1
            trace[TRACE_COUNT] = n
            trace[TRACE_LAST] = last


def _record_granules(trace, traced, first, last):
    """Trace a load, unless the machine has no trace (None, the default).  In the compiled
    counted run the overload below is chosen by the trace's type: an untraced machine has
    no code for it at all, so it keeps its speed."""
    if trace is not None:
        _append_granules(trace, traced, first, last)


@overload(_record_granules, inline="always", jit_options={"no_cfunc_wrapper": True})
def _record_granules_compiled(trace, traced, first, last):
    if isinstance(trace, types.NoneType):
        return lambda trace, traced, first, last: None
    return _append_granules


@jit(inline="numba", cache=False)
def _record(m, region, address, nbytes):
    """Trace a load from a traced region (the region's traced flag, `machine.recording_loads`)
    when `m` records loads."""
    _record_granules(m.trace, m.rtab[region, 3], address >> GRANULE_SHIFT,
                     (address + nbytes - 1) >> GRANULE_SHIFT)


def _load(mnemonic, nbytes, signed):
    index, cls, cat = _ids(mnemonic)
    sign_bit = 1 << (8 * nbytes - 1)

    def op(m, address):
        block = issue(m, index, cls, cat)
        region, at = locate(m, address, nbytes, index)
        _traffic(m, block, region, 0, 1, nbytes)
        _record(m, region, address, nbytes)
        value = _read_le(m.mem, at, nbytes)
        if signed or nbytes == 4:
            value = (value ^ sign_bit) - sign_bit
        return value
    # forceinline: LLVM declined to inline the traced load (2x slower recording, measured)
    return _register(mnemonic, mnemonic, op, forceinline=True)


def _store(mnemonic, nbytes, name=None):
    index, cls, cat = _ids(mnemonic, name)

    def op(m, address, value):
        block = issue(m, index, cls, cat)
        region, at = locate(m, address, nbytes, index)
        _traffic(m, block, region, 3, 1, nbytes)
        _write_le(m.mem, at, nbytes, value)
    return _register(name or mnemonic, mnemonic, op)


ldr = _load("ldr", 4, True)
ldrh = _load("ldrh", 2, False)
ldrsh = _load("ldrsh", 2, True)
ldrb = _load("ldrb", 1, False)
ldrsb = _load("ldrsb", 1, True)
str_ = _store("str", 4, "str_")
strh = _store("strh", 2)
strb = _store("strb", 1)


def _ldrd_body():
    index, cls, cat = _ids("ldrd")

    def op(m, address):
        block = issue(m, index, cls, cat)
        region, at = locate(m, address, 8, index)
        _traffic(m, block, region, 0, 2, 8)
        _record(m, region, address, 8)
        lo = _read_le(m.mem, at, 4)
        hi = _read_le(m.mem, at + 4, 4)
        return (lo ^ 0x80000000) - 0x80000000, (hi ^ 0x80000000) - 0x80000000
    return op


def _strd_body():
    index, cls, cat = _ids("strd")

    def op(m, address, lo, hi):
        block = issue(m, index, cls, cat)
        region, at = locate(m, address, 8, index)
        _traffic(m, block, region, 3, 2, 8)
        _write_le(m.mem, at, 4, lo)
        _write_le(m.mem, at + 4, 4, hi)
    return op


ldrd = _register("ldrd", "ldrd", _ldrd_body())
strd = _register("strd", "strd", _strd_body())


def _ldm_body(words):
    """LDM Rn, {`words` registers}: consecutive words from `address` up, one beat each.
    (Numba needs a fixed tuple size, hence one op per register count.)"""
    index, cls, cat = _ids("ldm")

    def op2(m, address):
        block = issue(m, index, cls, cat)
        region, at = locate(m, address, 8, index)
        _traffic(m, block, region, 0, 2, 8)
        _record(m, region, address, 8)
        m.st[block + MULTIPLE_BEATS] += 2
        return isa.s32(_read_le(m.mem, at, 4)), isa.s32(_read_le(m.mem, at + 4, 4))

    def op4(m, address):
        block = issue(m, index, cls, cat)
        region, at = locate(m, address, 16, index)
        _traffic(m, block, region, 0, 4, 16)
        _record(m, region, address, 16)
        m.st[block + MULTIPLE_BEATS] += 4
        mem = m.mem
        return (isa.s32(_read_le(mem, at, 4)), isa.s32(_read_le(mem, at + 4, 4)),
                isa.s32(_read_le(mem, at + 8, 4)), isa.s32(_read_le(mem, at + 12, 4)))
    return op2 if words == 2 else op4


def _stm_body(words):
    """STM Rn, {`words` registers}: the values to consecutive words from `address` up."""
    index, cls, cat = _ids("stm")

    def op2(m, address, v0, v1):
        block = issue(m, index, cls, cat)
        region, at = locate(m, address, 8, index)
        _traffic(m, block, region, 3, 2, 8)
        m.st[block + MULTIPLE_BEATS] += 2
        _write_le(m.mem, at, 4, v0)
        _write_le(m.mem, at + 4, 4, v1)

    def op4(m, address, v0, v1, v2, v3):
        block = issue(m, index, cls, cat)
        region, at = locate(m, address, 16, index)
        _traffic(m, block, region, 3, 4, 16)
        m.st[block + MULTIPLE_BEATS] += 4
        _write_le(m.mem, at, 4, v0)
        _write_le(m.mem, at + 4, 4, v1)
        _write_le(m.mem, at + 8, 4, v2)
        _write_le(m.mem, at + 12, 4, v3)
    return op2 if words == 2 else op4


ldm2 = _register("ldm2", "ldm", _ldm_body(2))    # LDM Rn(!), {Rt, Rt2}
ldm4 = _register("ldm4", "ldm", _ldm_body(4))    # LDM Rn(!), {Rt, Rt2, Rt3, Rt4}
stm2 = _register("stm2", "stm", _stm_body(2))    # STM Rn(!), {Rt, Rt2}
stm4 = _register("stm4", "stm", _stm_body(4))    # STM Rn(!), {Rt, Rt2, Rt3, Rt4}


def _stack(mnemonic, returns):
    """PUSH/POP of a function's frame: `registers` words to or from the stack; a POP that
    loads PC is a return (a taken branch)."""
    index, cls, cat = _ids(mnemonic)
    loads = mnemonic == "pop"

    def op(m, registers):
        block = issue(m, index, cls, cat)
        m.st[block + STACK_BEATS] += registers
        if loads:
            m.st[block + STACK_LOADS] += registers
        if returns:
            m.st[block + TAKEN] += 1
    return op


push = _register("push", "push", _stack("push", False))
pop = _register("pop", "pop", _stack("pop", False))
pop_pc = _register("pop_pc", "pop", _stack("pop", True))
# LDM Rn, {...} of stacked arguments (Rn = SP + #imm): `registers` words off the stack
ldm_sp = _register("ldm_sp", "ldm", _stack("ldm", False))


# --- branches ----------------------------------------------------------------------------

def _branch(mnemonic, always_taken):
    index, cls, cat = _ids(mnemonic)
    if always_taken:
        def op(m):
            block = issue(m, index, cls, cat)
            m.st[block + TAKEN] += 1
    else:
        def op(m, taken):
            block = issue(m, index, cls, cat)
            m.st[block + TAKEN] += taken
    return _register(mnemonic, mnemonic, op)


b = _branch("b", True)
bl = _branch("bl", True)
bx = _branch("bx", True)
blx = _branch("blx", True)
bcc = _branch("bcc", False)
cbz = _branch("cbz", False)
cbnz = _branch("cbnz", False)


# --- stack slots -------------------------------------------------------------------------

def _stack_slot(mnemonic, name):
    """A load or store of a stack slot: a stacked argument (the fifth and later arguments
    of a call) or a register spilled by the compiler.  The value lives in the kernel's
    Python variable; only the instruction's issue slot is counted (the stack is not one
    of the machine's memory regions); a load also counts its words in STACK_LOADS."""
    index, cls, cat = _ids(mnemonic, name)
    loaded = _stack_load_words(mnemonic)

    def op(m):
        block = issue(m, index, cls, cat)
        if loaded:
            m.st[block + STACK_LOADS] += loaded
    return _register(name, mnemonic, op)


def _stack_load_words(mnemonic):
    """Words a stack-slot or literal access of `mnemonic` loads (0 for a store)."""
    return 2 if mnemonic == "ldrd" else int(mnemonic.startswith("ld"))


ldr_sp = _stack_slot("ldr", "ldr_sp")       # LDR Rt, [sp, #imm]
str_sp = _stack_slot("str", "str_sp")       # STR Rt, [sp, #imm]
ldrd_sp = _stack_slot("ldrd", "ldrd_sp")    # LDRD Rt, Rt2, [sp, #imm]
strd_sp = _stack_slot("strd", "strd_sp")    # STRD Rt, Rt2, [sp, #imm]
ldrsh_sp = _stack_slot("ldrsh", "ldrsh_sp")  # LDRSH Rt, [Rn, #imm] of a struct on the caller's stack
ldrh_sp = _stack_slot("ldrh", "ldrh_sp")    # LDRH Rt, [Rn, #imm]: a uint16_t slot or struct field
ldrsb_sp = _stack_slot("ldrsb", "ldrsb_sp")  # LDRSB Rt, [Rn, #imm] of a struct on the caller's stack
strb_sp = _stack_slot("strb", "strb_sp")    # STRB Rt, [sp, #imm]
ldrb_sp = _stack_slot("ldrb", "ldrb_sp")    # LDRB Rt, [sp, #imm]: a stacked bool argument


bfi = _plain("bfi", isa.BFI)
ldr_lit = _stack_slot("ldr", "ldr_lit")     # LDR Rt, [pc, #imm]: a constant from the literal pool


# --- fitted bookkeeping ------------------------------------------------------------------

def _fitted(name):
    """``fitted_<name>(m)``: op `name`'s issue slot, also counted as fitted."""
    mnemonic = OPS[name].mnemonic
    index, cls, cat = _ids(mnemonic, "fitted_" + name)
    loaded = _stack_load_words(mnemonic) if name.endswith("_sp") else 0

    def op(m):
        block = issue(m, index, cls, cat)
        m.st[block + FITTED + index] += 1
        if loaded:
            m.st[block + STACK_LOADS] += loaded
    return _register("fitted_" + name, mnemonic, op, fitted=True)


fitted_ldr_sp = _fitted("ldr_sp")
fitted_str_sp = _fitted("str_sp")
fitted_ldrd_sp = _fitted("ldrd_sp")
fitted_strd_sp = _fitted("strd_sp")
fitted_ldrsh_sp = _fitted("ldrsh_sp")
fitted_ldrh_sp = _fitted("ldrh_sp")
fitted_ldrsb_sp = _fitted("ldrsb_sp")
fitted_strb_sp = _fitted("strb_sp")
fitted_ldrb_sp = _fitted("ldrb_sp")
fitted_ldm_sp = _fitted("ldm_sp")
fitted_mov = _fitted("mov")
fitted_add = _fitted("add")
fitted_sub = _fitted("sub")
fitted_cmp = _fitted("cmp")
fitted_bcc = _fitted("bcc")      # a conditional branch not taken (a taken one moves TAKEN)
