"""Cycle models: small real op sequences on a built machine, priced by each core's table.

Each test runs the same instructions in two arrangements (or two memory placements) and
checks the cycle difference the table's rule predicts; the last tests hold the M4 table
against the measured reference's own cycle estimate (cycles_trm).
"""
import json
from dataclasses import replace

import numpy as np
import pytest

from armsim.cpu import cores, machine, ops
from armsim.cpu.instructions import CLASS_INDEX, MNEMONIC_INDEX, N_CLASSES, N_MNEMONICS

from conftest import REFERENCE

REGIONS = ("sram", "flash")


def fresh():
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 64).region("flash", machine.FLASH_BASE, 64)
    return machine.build(mem)


SRAM, FLASH = machine.SRAM_BASE, machine.FLASH_BASE


def run(sequence):
    """Execute `sequence` (names: 'ldr', 'ldr_flash', 'add', 'str', 'smlad', ...) on a
    fresh machine through armsim.cpu.ops; returns the machine."""
    m = fresh()
    for step in sequence:
        if step == "ldr":
            ops.ldr(m, SRAM)
        elif step == "ldr_flash":
            ops.ldr(m, FLASH)
        elif step == "ldrd_flash":
            ops.ldrd(m, FLASH)
        elif step == "str":
            ops.str_(m, SRAM + 4, 7)
        elif step == "add":
            ops.add(m, 1, 2)
        elif step == "smlad":
            ops.smlad(m, 0x00010002, 0x00030004, 5)
        elif step == "sxtb16":
            ops.sxtb16(m, 0x01020304, 8)
        elif step == "sdiv":
            ops.sdiv(m, 100, 7)
        elif step == "taken":
            ops.bcc(m, True)
        elif step == "not_taken":
            ops.bcc(m, False)
        elif step == "push4":
            ops.push(m, 4)
        elif step == "pop_pc4":
            ops.pop_pc(m, 4)
        elif step == "ldm4":
            ops.ldm4(m, SRAM)
        elif step == "stm2":
            ops.stm2(m, SRAM, 1, 2)
        elif step == "it":
            ops.it(m)
        elif step == "it_failed2":
            ops.it(m, 2)           # ITT whose two instructions both fail this time
        else:
            raise KeyError(step)
    return m


def cyc(sequence, core, **kw):
    return cores.cycles(run(sequence), core, region_names=REGIONS, **kw)


def test_every_core_has_a_full_table():
    """Every core prices every scalar and DSP class; the MVE classes are not priced yet."""
    from armsim.cpu.instructions import SCALAR_CLASSES
    for core in cores.CORES.values():
        assert set(core.class_cycles) == set(SCALAR_CLASSES), core.name
        assert core.source


def test_an_unpriced_mve_instruction_is_refused():
    """A run that executed an MVE instruction cannot be priced by a table without MVE
    figures: one clear error, not 0 cycles."""
    from armsim.cpu import ops_mve
    m = fresh()
    ops_mve.vpst(m)
    for name in cores.CORES:
        with pytest.raises(ValueError, match="vpst.*MVE timing is not modelled"):
            cores.cycles(m, name)
        with pytest.raises(ValueError, match="vpst"):
            cores.stage_breakdown(m, name, total=0)


def test_m4_single_load_after_load_costs_one():
    # same instructions; only the neighbour of the second LDR differs
    assert cyc(["ldr", "ldr", "add"], "cortex-m4") == 2 + 1 + 1
    assert cyc(["ldr", "add", "ldr"], "cortex-m4") == 2 + 1 + 2
    # nothing pipelines after a store (TRM 3.3.2)
    assert cyc(["str", "ldr"], "cortex-m4") == 1 + 2
    b = cores.breakdown(run(["ldr", "ldr", "ldr"]), "cortex-m4")
    assert b["load_pipelining"] == -2 and b["total"] == 4


def test_failed_it_instructions_cost_their_issue_slot():
    m = run(["it_failed2", "add"])
    assert machine.counter(m, machine.IT_FAILED) == 2 and machine.counts(m)["it"] == 1
    assert sum(machine.counts(m).values()) == 2          # not executed: not instructions
    for core in cores.CORES:
        b = cores.breakdown(m, core)
        assert b["condition_failed"] == 2, core
    assert cyc(["it_failed2", "add"], "cortex-m4") == 1 + 2 + 1
    assert cyc(["it", "add"], "cortex-m4") == 2


def test_m33_is_priced_like_m4():
    seq = ["ldr", "ldr", "add", "smlad", "taken", "push4", "sdiv", "pop_pc4"]
    assert cyc(seq, "cortex-m33") == cyc(seq, "cortex-m4")


@pytest.mark.parametrize("core, refill", [("cortex-m4", 2), ("cortex-m33", 2),
                                          ("cortex-m7", 0), ("cortex-m55", 3)])
def test_taken_branch_refill(core, refill):
    assert cyc(["add", "taken"], core) - cyc(["add", "not_taken"], core) == refill


def test_m4_division_and_multiple_transfers():
    assert cyc(["sdiv"], "cortex-m4") == 7
    # PUSH {4 regs}: 1 + N; POP {.., pc}: 1 + N + refill
    assert cyc(["push4"], "cortex-m4") == 5
    assert cyc(["pop_pc4"], "cortex-m4") == 5 + 2
    # LDM {4 regs} / STM {2 regs}: 1 + N
    assert cyc(["ldm4"], "cortex-m4") == 5
    assert cyc(["stm2"], "cortex-m4") == 3


@pytest.mark.parametrize("core", list(cores.CORES))
def test_flash_wait_states_per_beat(core):
    base = cyc(["ldr_flash", "add", "ldr"], core)
    assert cyc(["ldr_flash", "add", "ldr"], core, flash_wait_states=3) == base + 3
    # an SRAM load pays no flash wait states; LDRD moves two words: two beats
    assert cyc(["ldr", "add", "ldr"], core, flash_wait_states=3) == cyc(["ldr", "add", "ldr"], core)
    assert cyc(["ldrd_flash"], core, flash_wait_states=2) == cyc(["ldrd_flash"], core) + 4
    assert cyc(["ldr"], core, wait_states={"sram": 1}) == cyc(["ldr"], core) + 1


def test_wait_states_need_region_names():
    with pytest.raises(ValueError):
        cores.cycles(run(["ldr_flash"]), "cortex-m4", flash_wait_states=1)


def test_unknown_core_is_a_clear_error():
    with pytest.raises(ValueError, match="cortex-m4"):
        cores.core("cortex-m99")


def test_m7_dual_issue_pairs():
    # two MACs need the single MAC pipe: never paired
    assert cyc(["smlad"] * 40, "cortex-m7") == 40
    # MAC + ALU alternate: every second instruction issues with its predecessor
    assert cyc(["smlad", "add"] * 20, "cortex-m7") == 20
    # two load pipes: load pairs dual-issue
    assert cyc(["ldr", "ldr"] * 20, "cortex-m7") == 20
    # SXTB16 is BeginGroup: never the second of a pair, but may lead one
    assert cyc(["sxtb16"] * 10, "cortex-m7") == 10
    assert cyc(["sxtb16", "smlad"] * 10, "cortex-m7") == 10
    # SDIV is SingleIssue (LLVM M7 latency 7)
    assert cyc(["add", "sdiv", "add"], "cortex-m7") == 1 + 7 + 1


def test_m7_first_instruction_never_pairs_with_reset():
    assert cyc(["add"], "cortex-m7") == 1
    assert cyc(["ldr"], "cortex-m7") == 1


def test_m55_it_dual_issues_after_alu_not_after_mac():
    assert cyc(["add", "it", "add"], "cortex-m55") == 2
    assert cyc(["smlad", "it", "add"], "cortex-m55") == 3


def test_breakdown_terms_sum_to_total():
    m = run(["ldr", "ldr", "ldr_flash", "push4", "smlad", "add", "taken", "ldm4", "stm2",
             "pop_pc4"])
    for core in cores.CORES:
        b = cores.breakdown(m, core, flash_wait_states=1, region_names=REGIONS)
        assert b["total"] == sum(v for k, v in b.items() if k != "total")
        assert b["wait_states"] == 1
        assert b["multiple_beats"] == 8 + 4 + 2


def test_latency_ms():
    assert cores.latency_ms(80_000, 80) == pytest.approx(1.0)


# --- the M4 table against the measured reference's cycle estimate ------------------------
#
# ../shared/reference/README.md prices each measured run with the Cortex-M4 TRM table
# (cycles_trm).  The measurements give the mnemonic histogram, beats, taken branches and the
# IT-block instructions whose condition failed, but not which loads followed a load
# (pipelined, 1 cycle) nor which stores used a register offset (2 cycles).  So the M4 model,
# fed the measured counters, must bracket cycles_trm: every single load pipelined (lower
# bound) .. no load pipelined and every store with a register offset (upper bound).

BUILDS = ("dsp_O2", "scalar_O2", "dsp_Os", "dsp_O3")


def _measured_bounds(measured, core):
    h, ch = measured["mnemonic_histogram"], measured["class_histogram"]
    mnemonics = np.zeros(N_MNEMONICS, np.int64)
    for mn, n in h.items():
        mnemonics[MNEMONIC_INDEX[mn]] = n
    # words moved by LDM/POP/STM/PUSH: all beats minus those of single and double transfers
    multiple = (measured["load_beats"] - ch.get("ld1", 0) - 2 * ch.get("ldrd", 0)) + \
               (measured["store_beats"] - ch.get("st1", 0) - 2 * ch.get("strd", 0))
    failed_it = measured["instructions_incl_condition_failed_it"] - measured["instructions"]
    pairs = np.zeros((N_CLASSES, N_CLASSES), np.int64)
    unpipelined = cores.breakdown_of(
        cores.Counters(mnemonics, pairs, measured["taken_branches"], multiple, failed_it, {}),
        core)
    ld1 = CLASS_INDEX["ld1"]
    pairs[ld1, ld1] = ch.get("ld1", 0)
    pipelined = cores.breakdown_of(
        cores.Counters(mnemonics, pairs, measured["taken_branches"], multiple, failed_it, {}),
        core)
    return pipelined["total"], unpipelined["total"] + ch.get("st1", 0)


REFERENCE_CASES = sorted(REFERENCE.glob("*.json"))


@pytest.mark.parametrize("path", REFERENCE_CASES, ids=lambda p: p.stem)
def test_m4_table_brackets_measured_cycles_trm(path):
    measured = json.loads(path.read_text())["measured"]
    for build in BUILDS:
        low, high = _measured_bounds(measured[build], cores.CORTEX_M4)
        assert low <= measured[build]["cycles_trm"] <= high, build


@pytest.mark.parametrize("broken", [
    replace(cores.CORTEX_M4, taken_branch_refill=0),
    replace(cores.CORTEX_M4, beat_cycles=0, taken_branch_refill=1),
    replace(cores.CORTEX_M4, class_cycles={**cores.CORTEX_M4.class_cycles, "dspmac": 2}),
    replace(cores.CORTEX_M4, class_cycles={**cores.CORTEX_M4.class_cycles, "ld1": 3},
            pipelined={("ld1", "ld1"): 2}),
], ids=["no-refill", "no-beats", "slow-smlad", "slow-loads"])
def test_bracket_catches_a_wrong_table(broken):
    """The bracket has teeth: a wrong figure puts some measured case outside it."""
    outside = 0
    for path in REFERENCE_CASES:
        measured = json.loads(path.read_text())["measured"]
        for build in BUILDS:
            low, high = _measured_bounds(measured[build], broken)
            outside += not (low <= measured[build]["cycles_trm"] <= high)
    assert outside > 0
