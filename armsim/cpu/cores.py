"""Cycle models as data: one table per core, applied to a machine's executed counters.

A core's cycles are computed from what the counted run recorded (`armsim.cpu.machine`):
per-mnemonic counts, the class-pair matrix (previous class, class), taken branches,
PUSH/POP register beats and per-region memory beats.  Nothing here runs code; a model
only prices what was executed.  Choosing a core, a clock or wait states is a parameter.

Terms of `breakdown` (all integers, `total` is their sum):

* ``issue``          each instruction at its class figure (per-mnemonic overrides: SDIV/UDIV);
* ``load_pipelining`` minus the cycles saved by pipelined neighbours, priced per class pair
                     (Cortex-M4: a single load right after a single load costs 1, not 2);
* ``multiple_beats`` one figure per register moved by PUSH/POP (`machine.STACK_BEATS`) and by
                     LDM/STM (`machine.MULTIPLE_BEATS`) on top of the instruction's own
                     cycle: LDM/STM/PUSH/POP cost 1 + N;
* ``branch_refill``  pipeline refill per taken branch (calls, returns, taken conditionals);
* ``condition_failed`` the issue slot of each IT-block instruction whose condition failed
                     (`machine.IT_FAILED`: the kernels pass it to ``it``; not an instruction);
* ``dual_issue``     minus the instructions issued in the same cycle as their predecessor;
* ``wait_states``    per beat (word) loaded from or stored to a region with wait states,
                     e.g. ``flash_wait_states`` for constant data (weights) in flash.

With a board's memory system (`armsim.cpu.memory.MemorySystem`, presets in `armsim.data.boards`)
instead of flat wait states, ``wait_states`` is replaced by ``data_memory``, ``stack_memory``
and ``instruction_fetch`` (caches, prefetch, per-memory wait states; see that module).

Not modelled (as in ../shared/reference/README.md's ``cycles_trm``): register dependences
(load-use and MAC-chain stalls, the M4 address-dependency stall), bus contention, branch-target
alignment, unaligned accesses, interrupts.  The stack (PUSH/POP, stack slots) is assumed in
zero-wait-state RAM.
"""
import functools
from dataclasses import dataclass, replace

import numpy as np

from . import machine, memory
from .instructions import (CLASS_INDEX, CLASS_OF, MNEMONICS, N_CLASSES, N_MNEMONICS,
                           SCALAR_CLASSES)

# --- the tables ---------------------------------------------------------------------------

#: SDIV/UDIV on Cortex-M4: ARM DDI 0439B (Cortex-M4 TRM) table 3-1 gives 2-12 cycles with
#: early termination on the operands; armsim takes 7, the figure the measured reference
#: (../shared/reference/README.md, cycles_trm) fixes, since operand-dependent timing is not
#: simulated.
M4_DIVIDE = 7


@dataclass(frozen=True)
class DualIssue:
    """Which (previous class, class) neighbours issue in one cycle.

    Rule (an approximation: the counters keep class pairs, not the instruction sequence):
    an instruction issues together with its predecessor when the pair is in `pairs` and the
    predecessor was not itself the second of a pair.  The number of such instructions is
    estimated by a first-order (Markov) model of the class sequence: with n[p, c] the
    (p, c) pair counts, N[p] the count of class p and d[c] the class-c instructions issued
    second, d[c] = sum over pairable p of n[p, c] * (1 - d[p] / N[p]), solved exactly as a
    linear system.  It is exact for sequences whose pairing depends only on the previous
    class (e.g. alternating load/ALU: half of all instructions; a run of N ALU operations:
    about N/2).
    """
    pairs: frozenset
    rule: str


@dataclass(frozen=True)
class Core:
    """A core's cycle table; every figure carries its source in the table that builds it."""
    name: str
    class_cycles: dict            # class -> cycles of one instruction of that class
    mnemonic_cycles: dict         # mnemonic -> cycles, overriding its class
    pipelined: dict               # (previous class, class) -> cycles of `class` after `previous`
    beat_cycles: int              # per register moved by LDM/STM/PUSH/POP, on top of the class figure
    taken_branch_refill: int      # cycles added by each taken branch
    failed_it_cycles: int         # per IT-block instruction whose condition failed
    dual_issue: DualIssue = None
    source: str = ""


CORTEX_M4 = Core(
    name="cortex-m4",
    class_cycles={
        "alu": 1,     # DDI 0439B table 3-1: ADD/SUB/logical/MOV/shift/compare/extend/REV/CLZ/bitfield: 1
        "mul": 1,     # table 3-1: MUL/MLA/MLS 1 (MLS 2 in rev r0p0 only), SMULL/UMULL/SMLAL/UMLAL 1, SMULxy/SMLAxy/SMULWx/SMMUL/SMMLA 1
        "dspmac": 1,  # table 3-1: SMLAD/SMLSD/SMUAD/SMUSD/SMLALD/SMLSLD (and X forms): 1
        "simd": 1,    # table 3-1: SXTB16/SXTAB16/PKHBT/PKHTB/SADD16/QADD8/SEL ...: 1
        "sat": 1,     # table 3-1: SSAT/USAT/QADD/QSUB/QDADD/QDSUB: 1
        "div": M4_DIVIDE,  # table 3-1: SDIV/UDIV 2-12 (see M4_DIVIDE)
        "ld1": 2,     # table 3-1: LDR/LDRH/LDRB/LDRSH/LDRSB: 2 (1 when pipelined, see `pipelined`)
        "ldrd": 3,    # table 3-1: LDRD 1 + N with N = 2 words
        "ldm": 1,     # table 3-1: LDM/POP 1 + N: the 1 here, N from `beat_cycles`
        "st1": 1,     # table 3-1 / section 3.3.2: STR/STRH/STRB with immediate offset: 1 (register offset 2, not distinguished)
        "strd": 3,    # table 3-1: STRD 1 + N with N = 2 words
        "stm": 1,     # table 3-1: STM/PUSH 1 + N: the 1 here, N from `beat_cycles`
        "br": 1,      # table 3-1: B/BL/BX/B<cc>/CBZ 1 (+ P when taken, `taken_branch_refill`)
        "it": 1,      # table 3-1: IT 1 (folding onto the preceding 16-bit instruction not modelled, as in cycles_trm)
    },
    mnemonic_cycles={"sdiv": M4_DIVIDE, "udiv": M4_DIVIDE},  # table 3-1, see M4_DIVIDE
    pipelined={
        # DDI 0439B section 3.3.2 / table 3-1 note: neighbouring single loads pipeline their
        # address and data phases, so a LDR right after a LDR costs 1; nothing pipelines
        # after a store.  Same rule as ../shared/reference/README.md (cycles_trm).
        ("ld1", "ld1"): 1,
    },
    beat_cycles=1,           # table 3-1: LDM/STM/PUSH/POP 1 + N, one cycle per register
    taken_branch_refill=2,   # table 3-1: taken branch 1 + P, P = 1-3 pipeline refill; 2 as in cycles_trm (and LLVM ARMScheduleM4.td MispredictPenalty = 2)
    failed_it_cycles=1,      # DDI 0439B section 3.3.1: a conditional instruction whose condition fails still takes its issue cycle; 1 as in cycles_trm
    dual_issue=None,         # Cortex-M4 is single issue (LLVM ARMScheduleM4.td: IssueWidth = 1)
    source="ARM DDI 0439B Cortex-M4 TRM table 3-1 (same table as ../shared/reference/README.md cycles_trm)",
)

# Arm publishes no instruction timing table for Cortex-M33.  LLVM schedules cortex-m33 with
# CortexM4Model (llvm/lib/Target/ARM/ARMProcessors.td), so armsim applies the M4 table.
CORTEX_M33 = replace(
    CORTEX_M4, name="cortex-m33",
    source="no Arm table; LLVM ARMProcessors.td schedules cortex-m33 with CortexM4Model, "
           "so the Cortex-M4 TRM table 3-1 figures are used")


def _m7_pairs():
    """Cortex-M7 dual-issue pairs from LLVM ARMScheduleM7.td's pipes.

    Resources: two ALU, two load (M7UnitLoadL/H), one store, one MAC, one branch, one SIMD
    pipe.  Per class (LLVM WriteRes/InstRW): ALU ops [ALU]; multiplies and SMLAD-family
    MACs [MAC]; SXTB16/SXTAB16/PKHBT/SADD16/SEL... [SIMD, ALU] with BeginGroup (only the
    first of a pair); SSAT/USAT/QADD... [SIMD, ALU, Shift1] with BeginGroup; single loads
    [Load]; single stores [Store]; branches [Branch]; SDIV/UDIV, LDRD/STRD and
    LDM/STM/PUSH/POP SingleIssue (never paired).  Two neighbours pair when neither is
    SingleIssue, the second is not BeginGroup and together they fit the pipes.  IT (not in
    the LLVM model) is taken as an ALU op that pairs only with its predecessor -- this also
    keeps the machine's reset predecessor (`machine.NO_CLASS`) from pairing.
    """
    units = {"alu": 2, "load": 2, "store": 1, "mac": 1, "branch": 1, "simd": 1, "shift1": 1}
    uses = {"alu": ("alu",), "mul": ("mac",), "dspmac": ("mac",), "simd": ("simd", "alu"),
            "sat": ("simd", "alu", "shift1"), "ld1": ("load",), "st1": ("store",),
            "br": ("branch",), "it": ("alu",)}
    single_issue = {"div", "ldrd", "strd", "ldm", "stm"}
    begin_group = {"simd", "sat"}
    pairs = set()
    for p in SCALAR_CLASSES:
        for c in SCALAR_CLASSES:
            if p in single_issue or c in single_issue or c in begin_group or p == "it":
                continue
            need = {}
            for unit in uses[p] + uses[c]:
                need[unit] = need.get(unit, 0) + 1
            if all(n <= units[unit] for unit, n in need.items()):
                pairs.add((p, c))
    return frozenset(pairs)


CORTEX_M7 = Core(
    name="cortex-m7",
    class_cycles={
        # No Arm table; LLVM ARMScheduleM7.td.  Every instruction takes one issue slot; the
        # figures are issue cycles, result latencies (MAC 2, byte loads 2) only matter for
        # dependent neighbours, which are not tracked.
        "alu": 1, "mul": 1, "dspmac": 1, "simd": 1, "sat": 1,  # LLVM M7: one ALU/MAC/SIMD pipe slot
        "div": 7,    # LLVM M7: WriteDIV Latency = 7, SingleIssue ("they stall for their latency")
        "ld1": 1,    # LLVM M7: WriteLd on one of two load pipes, Latency = 1
        "ldrd": 1,   # LLVM M7: t2LDRDi WriteLd + SingleIssue (64-bit data path)
        "ldm": 1,    # LLVM M7: LDM/POP WriteLd + SingleIssue; + N beats (`beat_cycles`)
        "st1": 1,    # LLVM M7: WriteST on the store pipe
        "strd": 1,   # LLVM M7: t2STRDi WriteST + SingleIssue
        "stm": 1,    # LLVM M7: STM/PUSH WriteST + SingleIssue; + N beats (`beat_cycles`)
        "br": 1,     # LLVM M7: WriteBr on the branch pipe
        "it": 1,     # not in LLVM M7; one ALU slot (usually dual-issued, see `_m7_pairs`)
    },
    mnemonic_cycles={"sdiv": 7, "udiv": 7},   # LLVM M7 WriteDIV Latency = 7
    pipelined={},               # two load pipes: load pairs are priced by dual issue instead
    beat_cycles=1,              # no public figure for LDM/STM on M7 (LLVM gives none); one register per cycle as on the M4 (assumption)
    taken_branch_refill=0,      # LLVM M7: no taken-branch cost beyond issue (branch prediction); MispredictPenalty = 4 applies to mispredictions, which are not simulated
    failed_it_cycles=1,         # no public figure (LLVM does not model IT blocks); one issue slot as on the M4 (assumption)
    dual_issue=DualIssue(_m7_pairs(), "LLVM ARMScheduleM7.td pipes, SingleIssue and BeginGroup flags"),
    source="no Arm table; LLVM ARMScheduleM7.td (IssueWidth 2, pipes, latencies)",
)

# Cortex-M55 (scalar and DSP instructions; MVE not modelled).  No Arm table; LLVM
# ARMScheduleM55.td: "a lot like the M4/M33", one integer pipe (M55UnitALU) that every scalar
# instruction occupies for one cycle (DX: latency 1, CX: latency 2, which only a dependent
# neighbour would see), and dual issue of a 16-bit instruction with IT, MOV/ADD/SUB
# immediate or SXTB/UXTB (M55WriteDI).  The counters know classes, not encodings, so only
# IT is paired here: IT after any instruction that LLVM lets dual issue (not the
# SingleIssue T2 multiplies, DSP, saturating, divide, LDRD/STRD).
_M55_DUAL_WITH_IT = ("alu", "ld1", "ldm", "st1", "stm", "br")

CORTEX_M55 = Core(
    name="cortex-m55",
    class_cycles={
        "alu": 1,    # LLVM M55: WriteALU/M55WriteDX on M55UnitALU, one cycle
        "mul": 1,    # LLVM M55: WriteMUL*/MAC* = M55WriteCX_SI, one M55UnitALU slot (latency 2)
        "dspmac": 1, # LLVM M55: t2SM[LM]* = M55WriteCX_SI, one slot (latency 2)
        "simd": 1,   # LLVM M55: t2SXTB16/PKH/S(ADD|SUB)16... one slot (DX or CX_SI)
        "sat": 1,    # LLVM M55: t2Q*, t2SSAT = M55WriteCX_SI, one slot (latency 2)
        "div": M4_DIVIDE,  # LLVM M55 WriteDIV latency 2 is a scheduling figure for an iterative divider; no Arm figure, the M4 value is kept (assumption)
        "ld1": 1,    # LLVM M55: t2LDR* = M55WriteCX_DI, one slot (load-use latency 2)
        "ldrd": 1,   # LLVM M55: t2LDRD one slot (64-bit data path)
        "ldm": 1,    # LLVM M55: t2LDM = M55WriteCX_DI; + N beats (`beat_cycles`)
        "st1": 1,    # LLVM M55: WriteST one slot
        "strd": 1,   # LLVM M55: t2STRD = M55WriteCX_SI, one slot
        "stm": 1,    # LLVM M55: t2STM = M55WriteDX_DI; + N beats (`beat_cycles`)
        "br": 1,     # LLVM M55: WriteBr one slot (+ refill when taken)
        "it": 1,     # LLVM M55: t2IT = M55WriteDI (dual-issued, see dual_issue)
    },
    mnemonic_cycles={"sdiv": M4_DIVIDE, "udiv": M4_DIVIDE},  # see "div"
    pipelined={},
    beat_cycles=1,             # no public figure for LDM/STM on M55 (LLVM gives one slot); one register per cycle as on the M4 (assumption)
    taken_branch_refill=3,     # LLVM ARMScheduleM55.td MispredictPenalty = 3 (4-stage pipeline refill), charged per taken branch
    failed_it_cycles=1,        # no public figure (LLVM does not model IT blocks); one issue slot as on the M4 (assumption)
    dual_issue=DualIssue(frozenset((p, "it") for p in _M55_DUAL_WITH_IT),
                         "LLVM ARMScheduleM55.td: IT (M55WriteDI) dual-issues after a non-SingleIssue instruction"),
    source="no Arm table; LLVM ARMScheduleM55.td (scalar part)",
)

CORES = {core.name: core for core in (CORTEX_M4, CORTEX_M7, CORTEX_M33, CORTEX_M55)}


def core(name):
    """The table of core `name`; ValueError naming the known cores otherwise."""
    if isinstance(name, Core):
        return name
    try:
        return CORES[name]
    except KeyError:
        raise ValueError(f"unknown core {name!r} (known: {', '.join(CORES)})") from None


# --- the counters a model prices ----------------------------------------------------------

@dataclass
class Counters:
    """What the cycle models read: a snapshot of a machine's counters."""
    mnemonics: np.ndarray        # int64 [N_MNEMONICS]
    pairs: np.ndarray            # int64 [N_CLASSES, N_CLASSES] (previous class, class)
    taken: int
    multiple_beats: int          # registers moved by PUSH/POP/LDM/STM
    it_failed: int               # IT-block instructions whose condition failed
    region_beats: dict           # region name -> load beats + store beats
    region_stores: dict = None   # region name -> store beats
    stack_loads: int = 0         # words loaded with no region (POP, stack slots, literals)

    @classmethod
    def of(cls, m, region_names=()):
        """The counters of the whole run."""
        return cls.of_block(machine.totals(m), region_names)

    @classmethod
    def of_block(cls, b, region_names=()):
        """The counters of one block of the machine's layout (`machine.totals`, or a row of
        `machine.blocks`: one stage)."""
        beats, stores = {}, {}
        for r, name in enumerate(region_names):
            base = machine.REGION_BASE + r * len(machine.REGION_FIELDS)
            beats[name] = int(b[base + 1] + b[base + 4])            # load + store beats
            stores[name] = int(b[base + 4])
        pairs = b[machine.PAIRS:machine.PAIRS + N_CLASSES * N_CLASSES]
        return cls(np.array(b[:N_MNEMONICS], np.int64),
                   np.array(pairs, np.int64).reshape(N_CLASSES, N_CLASSES),
                   int(b[machine.TAKEN]),
                   int(b[machine.STACK_BEATS] + b[machine.MULTIPLE_BEATS]),
                   int(b[machine.IT_FAILED]), beats, stores, int(b[machine.STACK_LOADS]))

    def class_counts(self):
        return self.mnemonics @ _CLASS_OF_MNEMONIC


# row i: the one-hot timing class of mnemonic i
_CLASS_OF_MNEMONIC = np.eye(N_CLASSES, dtype=np.int64)[[CLASS_INDEX[CLASS_OF[mn]] for mn in MNEMONICS]]


def _dual_issued(rule, pairs, class_counts):
    """Instructions issued second of a pair, by the first-order model of `DualIssue`."""
    ok = np.zeros((N_CLASSES, N_CLASSES), bool)
    for p, c in rule.pairs:
        ok[CLASS_INDEX[p], CLASS_INDEX[c]] = True
    n = np.where(ok, pairs, 0).astype(float)
    total = class_counts.astype(float)
    share = np.divide(n, total[:, None], out=np.zeros_like(n), where=total[:, None] > 0)
    # d = b - A d  with  A[c, p] = n[p, c] / N[p],  b[c] = sum_p n[p, c]
    a = share.T
    b = n.sum(axis=0)
    d = np.linalg.solve(np.eye(N_CLASSES) + a, b)
    d = np.clip(d, 0.0, np.minimum(b, total))
    return int(round(float(d.sum())))


def _issue_cycles(c):
    """Per mnemonic, its issue cycles on core `c` (0 for a class the core's table has no
    figure for: `_check_priced` refuses runs that execute one)."""
    return np.array([c.mnemonic_cycles.get(mn, c.class_cycles.get(CLASS_OF[mn], 0))
                     for mn in MNEMONICS], np.int64)


def _check_priced(c, mnemonic_counts):
    """ValueError when the run executed an instruction whose class core `c`'s table does
    not price (the Armv8.1-M classes of `instructions.MVE_CLASSES` have no figures yet)."""
    missing = [mn for mn, n in zip(MNEMONICS, mnemonic_counts)
               if n and mn not in c.mnemonic_cycles and CLASS_OF[mn] not in c.class_cycles]
    if missing:
        raise ValueError(f"{c.name}: no cycle figures for {', '.join(missing[:5])}"
                         f"{' ...' if len(missing) > 5 else ''} (class "
                         f"{CLASS_OF[missing[0]]}): MVE timing is not modelled yet")


_named_issue_cycles = functools.lru_cache(maxsize=None)(lambda name: _issue_cycles(core(name)))


def breakdown_of(counters, core_model, wait_states=None):
    """The cycle terms (see the module docstring) of `counters` on `core_model`."""
    c = core(core_model)
    _check_priced(c, counters.mnemonics)
    per_mnemonic = _named_issue_cycles(core_model) if isinstance(core_model, str) \
        else _issue_cycles(c)
    issue = int(per_mnemonic @ counters.mnemonics)
    saved = 0
    for (p, k), cost in c.pipelined.items():
        saved += int(counters.pairs[CLASS_INDEX[p], CLASS_INDEX[k]]) * (c.class_cycles[k] - cost)
    dual = _dual_issued(c.dual_issue, counters.pairs, counters.class_counts()) \
        if c.dual_issue is not None else 0
    waits = sum(int(n) * counters.region_beats.get(region, 0)
                for region, n in (wait_states or {}).items())
    terms = {
        "issue": issue,
        "load_pipelining": -saved,
        "multiple_beats": c.beat_cycles * counters.multiple_beats,
        "branch_refill": c.taken_branch_refill * counters.taken,
        "condition_failed": c.failed_it_cycles * counters.it_failed,
        "dual_issue": -dual,
        "wait_states": waits,
    }
    terms["total"] = sum(terms.values())
    return terms


def _block_weights(core_model, region_names, wait_states):
    """The weights `w` with ``block @ w == breakdown_of(Counters.of_block(block, ...))
    ["total"]`` for a core without dual issue, whose every term is a sum over counters:
    pricing a run's stage blocks is then one matrix product.  `wait_states`: sorted
    (region, n) pairs."""
    c = core(core_model)
    w = np.zeros(machine.BLOCK_SIZE, np.int64)
    w[:N_MNEMONICS] = _named_issue_cycles(core_model) if isinstance(core_model, str) \
        else _issue_cycles(c)
    for (p, k), cost in c.pipelined.items():
        w[machine.PAIRS + CLASS_INDEX[p] * N_CLASSES + CLASS_INDEX[k]] -= \
            c.class_cycles[k] - cost
    w[machine.STACK_BEATS] += c.beat_cycles
    w[machine.MULTIPLE_BEATS] += c.beat_cycles
    w[machine.TAKEN] += c.taken_branch_refill
    w[machine.IT_FAILED] += c.failed_it_cycles
    waits = dict(wait_states)
    for r, name in enumerate(region_names):
        base = machine.REGION_BASE + r * len(machine.REGION_FIELDS)
        w[base + 1] += waits.get(name, 0)                   # load beats
        w[base + 4] += waits.get(name, 0)                   # store beats
    return w


def _wait_states(flash_wait_states, wait_states):
    ws = dict(wait_states or {})
    if flash_wait_states:
        ws["flash"] = ws.get("flash", 0) + flash_wait_states
    for region, n in ws.items():
        if n < 0:
            raise ValueError(f"negative wait states for region {region!r}")
    return ws


def breakdown(m, core_name, flash_wait_states=0, region_names=(), wait_states=None,
              memory_system=None, memo=None):
    """Cycle terms of the instructions machine `m` executed, on core `core_name`.

    `region_names` names `m`'s regions in order (`harness.Result.region_names`); wait
    states are per region name (`wait_states={"flash": 2}`), `flash_wait_states=N` is short
    for the flash region.  A wait-state region the machine does not have adds nothing.
    `memory_system` (`armsim.cpu.memory.MemorySystem`) prices memory instead of flat wait
    states: its data caches need a machine built under `machine.recording_loads()`; `memo`
    (a dict) keeps its cache replays for `corner_cycles`."""
    ws = _wait_states(flash_wait_states, wait_states)
    if any(ws.values()) and not region_names:
        raise ValueError("wait states need the machine's region_names")
    counters = Counters.of(m, region_names)
    if memory_system is None:
        return breakdown_of(counters, core_name, ws)
    if any(ws.values()):
        raise ValueError("give either flat wait states or a memory system, not both")
    terms = breakdown_of(counters, core_name)
    del terms["wait_states"], terms["total"]
    terms.update(memory.memory_terms(counters, memory_system,
                                     machine.load_trace(m, region_names), memo))
    terms["total"] = sum(terms.values())
    return terms


def corner_cycles(m, region_names, pricing, total, memo=None):
    """Total cycles of machine `m`'s run on each memory system of `pricing`
    (`memory.CornerPricing` of `MemorySystem.corners()`: the board's preset first, then every
    corner of its assumed figures' ranges), given `total`, the preset's
    `breakdown(...)["total"]`: only the memory terms differ between corners, priced from the
    same counters and load trace (`memo`: `pricing.memo()`, as `breakdown` used it)."""
    costs = pricing.costs(Counters.of(m, region_names), machine.load_trace(m, region_names),
                          memo)
    return total - costs[0] + costs


def cycles(m, core_name, flash_wait_states=0, region_names=(), wait_states=None,
           memory_system=None):
    """Total cycles of machine `m`'s executed instructions on core `core_name`."""
    return breakdown(m, core_name, flash_wait_states, region_names, wait_states,
                     memory_system)["total"]


def stage_breakdown(m, core_name, flash_wait_states=0, region_names=(), wait_states=None,
                    memory_system=None, total=None):
    """Cycles and instructions of machine `m`'s run split by stage (`machine.STAGES`):
    {stage: {"cycles", "instructions"}}, in `STAGES` order, empty stages left out.

    Each stage's cycles are its own counters priced by the same terms as the whole
    (`breakdown_of`): every term but dual issue is a sum over counters, so the stages add
    up to `breakdown(...)["total"]` exactly.  What does not split that way -- the Cortex-M7
    dual issue across stage boundaries, and a board's memory system (caches replay the
    whole load trace) -- is its own row, "not split by stage", so the rows always sum to
    the total.  `total`: that total when the caller has it already."""
    ws = _wait_states(flash_wait_states, wait_states)
    if total is None:
        total = breakdown(m, core_name, flash_wait_states, region_names, wait_states,
                          memory_system)["total"]
    out = {}
    blocks = machine.blocks(m)
    _check_priced(core(core_name), blocks[:, :N_MNEMONICS].sum(axis=0))
    active = np.flatnonzero(blocks[:, :N_MNEMONICS].any(axis=1))
    if core(core_name).dual_issue is None:
        block_cycles = blocks[active] @ _block_weights(core_name, tuple(region_names),
                                                       tuple(sorted(ws.items())))
    else:
        block_cycles = [breakdown_of(Counters.of_block(blocks[k], region_names), core_name,
                                     ws)["total"] for k in active]
    instructions = blocks[active, :N_MNEMONICS].sum(axis=1)
    for k, cycles_k, n in zip(active, block_cycles, instructions):
        row = out.setdefault(machine.stage_label(int(k)), {"cycles": 0, "instructions": 0})
        row["cycles"] += int(cycles_k)
        row["instructions"] += int(n)
    ordered = {label: out[label] for label in machine.STAGES if label in out}
    rest = total - sum(row["cycles"] for row in ordered.values())
    if rest:
        ordered[NOT_SPLIT] = {"cycles": rest, "instructions": 0}
    return ordered


NOT_SPLIT = "unsplit"          # memory system, dual issue across stages: not split by stage


def latency_ms(cycle_count, clock_mhz):
    """Milliseconds taken by `cycle_count` cycles at `clock_mhz`."""
    if clock_mhz <= 0:
        raise ValueError("clock must be positive")
    return cycle_count / (clock_mhz * 1e3)


__all__ = ["Core", "DualIssue", "CORES", "CORTEX_M4", "CORTEX_M7", "CORTEX_M33", "CORTEX_M55",
           "Counters", "core", "cycles", "breakdown", "breakdown_of", "stage_breakdown", "NOT_SPLIT",
           "corner_cycles",
           "latency_ms"]
