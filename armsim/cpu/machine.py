"""The simulated machine: counters, flags and a byte-addressed memory with named regions.

A `Machine` is a namedtuple of numpy arrays so that the same object is used by the
numba-compiled counted run and by the pure-Python traced run:

* ``regions`` int64 [code region, state]: one state vector per code region (below).
* ``st``   the current code region's row of ``regions``: per-mnemonic counts, taken branches, the Q and GE flags,
           the class of the previous instruction and a class-pair matrix (what the cycle
           models need: load pipelining, dual issue), IT-block instructions whose condition
           failed, per-region memory traffic, fault info.
* ``mem``  uint8 backing store of every region, one after the other.
* ``rtab`` int64 ``[region, (base address, size, offset in mem, traced)]``.
* ``trace`` None, or (``build(..., trace_loads=...)``, `recording_loads`) the int64 granule
           trace of the loads from traced regions that cache models replay (see
           `TRACEABLE_REGIONS`); ``rtab``'s traced column says which regions append.
* ``dsp``  True when the core has the DSP extension (CMSIS-NN's ``ARM_MATH_DSP``).
* ``armclang`` True to take the Arm Compiler 6 branches of CMSIS-NN's code.
* ``single_rounding`` True for CMSIS-NN built with CMSIS_NN_USE_SINGLE_ROUNDING.
"""
from collections import namedtuple
from contextlib import contextmanager

import numpy as np

from .instructions import (CLASSES, CLASS_INDEX, MNEMONICS, N_CLASSES, N_MNEMONICS)

Machine = namedtuple("Machine", "st mem rtab dsp armclang trace single_rounding regions")

# --- layout of the state vector ------------------------------------------------------
# One state vector per *code region* the kernels enter and leave (`CODE_REGIONS`: im2col,
# the requantization, TFLM's Eval glue, else the kernel), the rows of `Machine.regions`; a
# kernel's ops count in `st`, the current region's row (`armsim.cpu.ops.enter_region` hands
# the code inside a region a Machine on that region's row, carrying the flags across).  A
# row is a header (flags, fault info) and one block of counters per op category
# (`CATEGORIES`, fixed by the op, so every index an op touches is a constant).  A stage is a
# (region, category) block: every instruction counts in one stage only, so a cycle model
# that is a sum over counters prices each stage on its own and the stages add up to the
# whole; `totals(m)` is the sum of the blocks.
Q_FLAG = 0                     # APSR.Q (sticky)
GE_FLAGS = 1                   # APSR.GE<3:0>
PREV_CLASS = 2                 # class index of the previous instruction
QC_FLAG = 3                    # FPSCR.QC, the MVE saturation flag (sticky; `qc_flag`)
FAULT_ADDRESS = 4
FAULT_MNEMONIC = 5
FAULTED = 6                    # 1 in the row whose access faulted
HEADER = 7
# within a block: per-mnemonic counts first, then
TAKEN = N_MNEMONICS            # taken branches (incl. calls and returns)
STACK_BEATS = TAKEN + 1        # words moved by PUSH/POP (the stack frame)
MULTIPLE_BEATS = STACK_BEATS + 1  # words moved by LDM/STM (the 1 + N cycle models need N)
IT_FAILED = MULTIPLE_BEATS + 1  # IT-block instructions whose condition failed (not executed)
STACK_LOADS = IT_FAILED + 1    # words loaded with no region: POP registers, stack-slot and
                               # literal-pool loads (the rest of the unaddressed beats are stores)
PAIRS = STACK_LOADS + 1        # N_CLASSES x N_CLASSES: (previous class, class) counts
MAX_REGIONS = 8
REGION_FIELDS = ("loads", "load_beats", "load_bytes", "stores", "store_beats", "store_bytes")
REGION_BASE = PAIRS + N_CLASSES * N_CLASSES
FITTED = REGION_BASE + MAX_REGIONS * len(REGION_FIELDS)  # per mnemonic: issued by fitted ops
BLOCK_SIZE = FITTED + N_MNEMONICS
# blocks start BLOCK_STRIDE words apart: rounded up to a 64-byte line plus two lines, so the
# blocks' hot counters fall in different sets of the host's L1 cache (a stride near 4 KiB
# put them all in one set and halved the counted run's speed)
BLOCK_STRIDE = (BLOCK_SIZE + 7) // 8 * 8 + 16
CODE_REGIONS = ("kernel", "im2col", "requantize", "glue")
# the category of an op (`armsim.cpu.ops`): multiply-accumulates, operand unpacking
# (extends, packs, rotates), loads, stores, saturation, other ALU work and branches, calls
# and stack frames (incl. transcribed stack slots), fitted bookkeeping
CATEGORIES = ("mac", "unpack", "load", "store", "saturate", "alu", "call", "fitted")
STATE_SIZE = HEADER + len(CATEGORIES) * BLOCK_STRIDE     # one code region's row
N_BLOCKS = len(CODE_REGIONS) * len(CATEGORIES)


def category_start(category):
    """Where category `category`'s block starts in a row."""
    return HEADER + CATEGORIES.index(category) * BLOCK_STRIDE


# the stage a block reports under: a code region names it, else the op category does
STAGES = {
    "mac": "multiplies and multiply-accumulates (SMLAD, MLA, SMLAL, MUL, ...)",
    "unpack": "operand unpacking: extends, packs, rotates (SXTB16, SXTAB16, PKHBT, ROR, ...)",
    "loads": "loads of operands (weights, activations, biases, parameters)",
    "im2col": "im2col and input widening (tap copies, s8 -> s16 with the input offset)",
    "requantize": "requantization (arm_nn_requantize, MultiplyByQuantizedMultiplier)",
    "saturate": "saturation (SSAT / USAT / QADD ...)",
    "stores": "stores of results",
    "bookkeeping": "loop bookkeeping, compares, branches and address arithmetic",
    "calls": "calls, returns, stack frames and transcribed stack slots",
    "calibrated": "calibrated (fitted) stack traffic and bookkeeping",
    "glue": "TFLM's Eval glue (tensor and shape look-ups, parameter set-up)",
}
_REGION_STAGE = {"im2col": "im2col", "requantize": "requantize", "glue": "glue"}
_CATEGORY_STAGE = {"mac": "mac", "unpack": "unpack", "load": "loads", "store": "stores",
                   "saturate": "saturate", "alu": "bookkeeping", "call": "calls",
                   "fitted": "calibrated"}


def stage_label(block):
    """The stage block `block` reports under (one of `STAGES`): fitted instructions are
    calibrated bookkeeping wherever they run, except in TFLM's glue (fitted as a whole)."""
    region, category = CODE_REGIONS[block // len(CATEGORIES)], CATEGORIES[block % len(CATEGORIES)]
    if region == "glue" or (category != "fitted" and region in _REGION_STAGE):
        return _REGION_STAGE[region]
    return _CATEGORY_STAGE[category]


def region_index(region):
    """The row of code region `region` (a name of `CODE_REGIONS`)."""
    return CODE_REGIONS.index(region)


def in_region(m, region):
    """Host side: a Machine counting in code region `region`, with `m`'s flags (hand them
    back with `leave(m, that)`); `armsim.cpu.ops.enter_region` is the compiled twin."""
    inner = m._replace(st=m.regions[region_index(region)])
    inner.st[:HEADER - 1] = m.st[:HEADER - 1]
    return inner


def leave(m, inner):
    m.st[:HEADER - 1] = inner.st[:HEADER - 1]


NO_CLASS = CLASS_INDEX["it"]   # a neutral predecessor at reset (IT never affects timing)

# --- the load trace: what cache models need beyond the counters -------------------------
# Loads from a traced region append the 16-byte granule (address >> GRANULE_SHIFT) they touch
# whenever it differs from the previous traced load's granule.  Replaying that sequence through
# an LRU cache whose line is a multiple of 16 bytes gives its exact hits and misses: repeated
# accesses to the most recently used line change no LRU state.  The same holds for the
# granules of any subset of the regions (one cache's share of the trace): a repeat dropped
# from the whole sequence is a repeat in the subset too.  `armsim.cpu.memory` replays it.
# Which regions append is chosen per run (`recording_loads`): only those a cache sits in
# front of, since every appended granule costs the counted run time.
TRACEABLE_REGIONS = ("flash", "sram")   # constant data (weights), the arena
GRANULE_SHIFT = 4
TRACE_COUNT, TRACE_LAST, TRACE_HEADER = 0, 1, 2
TRACE_CAPACITY = 1 << 22       # granules per machine (one op); beyond, loads are only counted

# Conventional Cortex-M memory map (ARMv7-M ARM B3.1): code/flash and SRAM.
FLASH_BASE = 0x0800_0000
SRAM_BASE = 0x2000_0000


class MemoryFault(Exception):
    """A simulated access outside every region: the HardFault a real core would take."""


class Memory:
    """Builder of a machine's regions.  Buffers are placed with `place`, 16-byte aligned."""

    def __init__(self):
        self.names = []
        self.bases = []
        self.sizes = []
        self._chunks = {}

    def region(self, name, base, size):
        if len(self.names) == MAX_REGIONS:
            raise ValueError(f"at most {MAX_REGIONS} memory regions")
        self.names.append(name)
        self.bases.append(base)
        self.sizes.append(size)
        self._chunks[name] = []
        return self

    def place(self, name, data):
        """Reserve room for `data` (bytes-like array or a byte count) in region `name`;
        returns its simulated address."""
        chunks = self._chunks[name]
        offset = sum(_align16(len(c)) for c in chunks)
        buf = np.zeros(data, np.uint8) if isinstance(data, int) else \
            np.ascontiguousarray(data).view(np.uint8).ravel()
        chunks.append(buf)
        need = offset + len(buf)
        i = self.names.index(name)
        if need > self.sizes[i]:
            self.sizes[i] = need
        return self.bases[i] + offset


def _align16(n):
    return (n + 15) & ~15


_recording = [None, ()]    # inside `recording_loads`: the shared trace buffer, traced regions


def _new_trace():
    # pages touched only as used
    return np.empty(TRACE_HEADER + TRACE_CAPACITY, np.int64)


def _traced(regions):
    unknown = set(regions) - set(TRACEABLE_REGIONS)
    if unknown:
        raise ValueError(f"cannot trace loads from {sorted(unknown)} "
                         f"(traceable: {', '.join(TRACEABLE_REGIONS)})")
    return tuple(regions)


@contextmanager
def recording_loads(regions=TRACEABLE_REGIONS):
    """Within this context, `build` makes machines that trace their loads from `regions`
    (for the cache models of `armsim.cpu.memory`) unless told otherwise.  A traced machine
    is another numba type, so its kernels compile once more; untraced runs are unchanged.

    The machines built in one block share one trace buffer, each build starting it afresh:
    read a machine's `load_trace` before building the next.  (A fresh 32 MB buffer per op
    cost a model run its page faults again at every op: 10-13 % of a board run.)"""
    before = list(_recording)
    _recording[:] = [_new_trace(), _traced(regions)]
    try:
        yield
    finally:
        _recording[:] = before


def build(memory, dsp=True, armclang=False, trace_loads=None, single_rounding=False):
    """Materialise a `Memory` layout into a fresh `Machine` with zeroed counters;
    `trace_loads` (default: inside `recording_loads`) adds the load trace: True traces
    every traceable region, a tuple of region names those."""
    if trace_loads is None and _recording[0] is not None:
        trace, traced = _recording[0], _recording[1]
    elif trace_loads:
        trace = _new_trace()
        traced = TRACEABLE_REGIONS if trace_loads is True else _traced(trace_loads)
    else:
        trace, traced = None, ()
    n = len(memory.names)
    rtab = np.zeros((n, 4), np.int64)
    offset = 0
    for i in range(n):
        size = _align16(memory.sizes[i])
        rtab[i] = (memory.bases[i], memory.sizes[i], offset, memory.names[i] in traced)
        offset += size
    mem = np.zeros(offset, np.uint8)
    for i, name in enumerate(memory.names):
        pos = rtab[i, 2]
        for chunk in memory._chunks[name]:
            mem[pos:pos + len(chunk)] = chunk
            pos += _align16(len(chunk))
    regions = np.zeros((len(CODE_REGIONS), STATE_SIZE), np.int64)
    st = regions[0]
    st[PREV_CLASS] = NO_CLASS
    if trace is not None:
        trace[:TRACE_HEADER] = (0, -1)
    return Machine(st, mem, rtab, dsp, armclang, trace, single_rounding, regions)


def read(m, address, count, dtype=np.int8):
    """Copy `count` elements of `dtype` out of simulated memory (host side, not counted)."""
    nbytes = count * np.dtype(dtype).itemsize
    for base, size, offset, _ in m.rtab:
        if base <= address and address + nbytes <= base + size:
            start = offset + address - base
            return m.mem[start:start + nbytes].view(dtype).copy()
    raise MemoryFault(f"host read of {nbytes} bytes at {address:#010x} is outside every region")


def qc_flag(m):
    """FPSCR.QC: whether an MVE instruction saturated.  Only ever set, so the ops set it in
    the current code region's row and the machine's flag is the OR over the rows (region
    changes need not carry it)."""
    return bool(m.regions[:, QC_FLAG].any())


def reset_counters(m):
    m.regions[:] = 0
    m.st[PREV_CLASS] = NO_CLASS
    if m.trace is not None:
        m.trace[:TRACE_HEADER] = (0, -1)


def fault_message(m, region_names):
    row = m.regions[int(np.argmax(m.regions[:, FAULTED]))]    # the code region that faulted
    mnemonic = MNEMONICS[row[FAULT_MNEMONIC]]
    address = int(row[FAULT_ADDRESS]) & 0xFFFFFFFF
    spans = ", ".join(f"{name} {int(b):#010x}-{int(b + s):#010x}"
                      for name, (b, s, _, _) in zip(region_names, m.rtab))
    return f"HardFault: {mnemonic.upper()} accessed {address:#010x}, outside every region ({spans})"


def blocks(m):
    """The per-stage counter blocks, [N_BLOCKS, BLOCK_SIZE] (a copy): block
    r * len(CATEGORIES) + c holds code region CODE_REGIONS[r], category CATEGORIES[c]."""
    return m.regions[:, HEADER:].reshape(N_BLOCKS, BLOCK_STRIDE)[:, :BLOCK_SIZE]


def totals(m):
    """One block of counters for the whole run: the sum over the stage blocks."""
    return blocks(m).sum(axis=0)


def counts(m, block=None):
    """Per-mnemonic counts of the executed instructions (of one stage block with `block`),
    non-zero ones only."""
    b = totals(m) if block is None else blocks(m)[block]
    return {mn: int(c) for mn, c in zip(MNEMONICS, b[:N_MNEMONICS]) if c}


def fitted_counts(m):
    """Per mnemonic, how many of `counts(m)` were issued by fitted ops (instructions whose
    number was calibrated against measured counts, not transcribed): non-zero ones only."""
    b = totals(m)
    return {mn: int(c) for mn, c in zip(MNEMONICS, b[FITTED:FITTED + N_MNEMONICS]) if c}


def counter(m, field):
    """A whole-run counter of the block layout: `counter(m, TAKEN)`, IT_FAILED, ..."""
    return int(blocks(m)[:, field].sum())


def class_pairs(m, block=None):
    b = totals(m) if block is None else blocks(m)[block]
    return b[PAIRS:PAIRS + N_CLASSES * N_CLASSES].reshape(N_CLASSES, N_CLASSES)


LoadTrace = namedtuple("LoadTrace", "granules dropped spans")


def load_trace(m, region_names=()):
    """A `LoadTrace`: the granules (16-byte units) traced loads touched, in order; how many
    granule changes did not fit the trace (0 when it is complete); and per traced region
    named in `region_names` (the machine's regions in order), its span of granules
    [first, end).  None for an untraced machine."""
    if m.trace is None:
        return None
    appended = int(m.trace[TRACE_COUNT])
    kept = min(appended, len(m.trace) - TRACE_HEADER)
    spans = {name: (int(base) >> GRANULE_SHIFT, (int(base + size) + (1 << GRANULE_SHIFT) - 1)
                    >> GRANULE_SHIFT)
             for name, (base, size, _, traced) in zip(region_names, m.rtab) if traced}
    return LoadTrace(m.trace[TRACE_HEADER:TRACE_HEADER + kept], appended - kept, spans)


def region_traffic(m, region_names, block=None):
    """Per region: loads, stores, words (beats) and bytes moved (by one stage block with
    `block`)."""
    b = totals(m) if block is None else blocks(m)[block]
    out = {}
    for r, name in enumerate(region_names):
        base = REGION_BASE + r * len(REGION_FIELDS)
        out[name] = {f: int(b[base + k]) for k, f in enumerate(REGION_FIELDS)}
    return out


__all__ = ["Machine", "Memory", "MemoryFault", "build", "read", "counts", "fitted_counts",
           "counter", "totals", "blocks", "stage_label", "STAGES", "region_index", "in_region",
           "qc_flag",
           "leave", "class_pairs",
           "region_traffic", "load_trace", "LoadTrace", "recording_loads", "CLASSES"]
