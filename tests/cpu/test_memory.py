"""Memory-system model: each mechanism on a few real ops, against cycles worked out by hand.

The machine runs real `armsim.cpu.ops` (as tests/cpu/test_cores.py does); the memory system is
built here from `armsim.cpu.memory` dataclasses with round numbers, so every expected figure
below follows from the module docstring's rules in a line of arithmetic.
"""
from dataclasses import replace

import numpy as np
import pytest

from armsim.cpu import cores, machine, memory, ops

REGIONS = ("sram", "flash")
SRAM, FLASH = machine.SRAM_BASE, machine.FLASH_BASE


ICACHE = memory.Cache("I-cache", 1024, 16, 64)


def fresh(trace_loads=None):
    mem = machine.Memory()
    mem.region("sram", SRAM, 256).region("flash", FLASH, 256)
    return machine.build(mem, trace_loads=trace_loads)


def system(flash_ws=0, sram_ws=0, flash_width=16, data_cache=None, fetch_cache=ICACHE,
           prefetch=False, arena="sram"):
    """A memory system with round numbers; code is fetched through an I-cache (no fetch
    stalls) unless a test asks for `fetch_cache=None`."""
    mems = {"flash": memory.Memory("flash", flash_ws, flash_width, data_cache),
            "sram": memory.Memory("sram", sram_ws, 4),
            "dtcm": memory.Memory("dtcm", 0, 8)}
    fetch = memory.InstructionFetch("flash", prefetch, fetch_cache, bytes_per_instruction=3)
    return memory.MemorySystem(mems, fetch, {"flash": "flash", "sram": arena, "stack": arena})


def terms(m, sys_):
    return cores.breakdown(m, "cortex-m4", region_names=REGIONS, memory_system=sys_)


def base(m):
    return cores.breakdown(m, "cortex-m4", region_names=REGIONS)["total"]


def test_no_memory_system_keeps_the_zero_wait_state_terms():
    m = fresh()
    ops.ldr(m, FLASH)
    ops.add(m, 1, 2)
    b = cores.breakdown(m, "cortex-m4", region_names=REGIONS)
    assert "wait_states" in b and "data_memory" not in b and b["total"] == 2 + 1


def test_an_all_zero_memory_system_adds_nothing():
    m = fresh()
    for k in range(4):
        ops.ldr(m, FLASH + 4 * k)
        ops.str_(m, SRAM + 4 * k, k)
    ops.push(m, 3)
    ops.bcc(m, True)
    t = terms(m, system())
    assert (t["data_memory"], t["stack_memory"], t["instruction_fetch"]) == (0, 0, 0)
    assert t["total"] == base(m)


def test_wait_states_on_data_per_beat():
    m = fresh()
    ops.ldr(m, FLASH)                 # 1 flash beat: 3 ws
    ops.ldrd(m, FLASH + 8)            # 2 flash beats: 6 ws
    ops.ldr(m, SRAM)                  # 1 SRAM beat: 1 ws
    ops.str_(m, SRAM + 4, 5)          # 1 SRAM beat: 1 ws
    t = terms(m, system(flash_ws=3, sram_ws=1))
    assert t["data_memory"] == 3 + 6 + 1 + 1
    assert t["stack_memory"] == 0
    assert t["total"] == base(m) + 11


def test_stack_beats_pay_the_stack_memorys_wait_states():
    m = fresh()
    ops.push(m, 4)                    # 4 beats
    ops.ldr_sp(m)                     # a spill reload: 1 beat
    ops.strd_sp(m)                    # a stacked pair: 2 beats
    ops.ldr(m, SRAM)                  # a region load: data, not stack
    t = terms(m, system(sram_ws=2))
    assert t["stack_memory"] == (4 + 1 + 2) * 2
    assert t["data_memory"] == 2


def test_tcm_placement_removes_the_sram_wait_states():
    m = fresh()
    ops.push(m, 2)
    ops.ldr(m, SRAM)
    ops.str_(m, SRAM + 4, 1)
    assert terms(m, system(sram_ws=1))["total"] == base(m) + 2 + 2
    assert terms(m, system(sram_ws=1, arena="dtcm"))["total"] == base(m)


def _straight_line(m, n_alu, taken):
    for _ in range(n_alu):
        ops.add(m, 1, 2)
    for _ in range(taken):
        ops.bcc(m, True)


def test_fetch_without_prefetch_stalls_every_line_and_every_taken_branch():
    # 31 ADD + 1 taken B<cc> = 32 instructions x 3 bytes = 96 bytes = 6 lines of 16 bytes
    m = fresh()
    _straight_line(m, 31, 1)
    t = terms(m, system(flash_ws=2, fetch_cache=None))
    assert t["instruction_fetch"] == 6 * 2 + 1 * 2


def test_prefetch_hides_sequential_fetch_when_a_line_outlasts_the_wait():
    m = fresh()
    _straight_line(m, 31, 1)
    # 16-byte line = 5.33 instructions >= 1 + 2 wait states: only the branch target stalls
    assert terms(m, system(flash_ws=2, prefetch=True, fetch_cache=None))["instruction_fetch"] == 2
    # 7 wait states: each line stalls 8 - 5.33 = 2.67 cycles; 6 lines = 16, + 7 for the branch
    assert terms(m, system(flash_ws=7, prefetch=True, fetch_cache=None))["instruction_fetch"] \
        == 16 + 7


def test_an_instruction_cache_removes_fetch_stalls():
    m = fresh()
    _straight_line(m, 31, 5)
    assert terms(m, system(flash_ws=5, fetch_cache=None))["instruction_fetch"] > 0
    assert terms(m, system(flash_ws=5, fetch_cache=ICACHE))["instruction_fetch"] == 0


def test_lru_replay_hits_and_misses():
    fully = memory.Cache("2 lines, fully associative", 32, 16, 2)
    direct = memory.Cache("2 lines, direct mapped", 32, 16, 1)
    # lines 0, 1, 0, 2, 1 (16-byte granules = lines)
    granules = [0, 1, 0, 2, 1]
    # LRU: miss 0, miss 1, hit 0, miss 2 (evicts 1), miss 1
    assert memory.cache_misses(granules, fully) == 4
    # direct: sets by line & 1: miss 0, miss 1, hit 0, miss 2 (evicts 0 in set 0), hit 1
    assert memory.cache_misses(granules, direct) == 3
    # 32-byte lines: granules 0,1 are one line, 2 the next: miss, (hit), miss
    assert memory.cache_misses([0, 1, 2, 3, 0], memory.Cache("2 x 32", 64, 32, 2)) == 2


def _flash_loads(m):
    ops.ldr(m, FLASH)          # line 0: miss
    ops.ldr(m, FLASH + 4)      # line 0: hit (same granule: not even traced)
    ops.ldr(m, FLASH + 16)     # line 1: miss
    ops.ldr(m, FLASH)          # line 0: hit
    ops.ldr(m, FLASH + 32)     # line 2: miss, evicts line 1 (least recently used)
    ops.ldr(m, FLASH + 16)     # line 1: miss


def test_data_cache_misses_pay_the_line_read_hits_pay_nothing():
    m = fresh(trace_loads=True)
    _flash_loads(m)
    granules, dropped = machine.load_trace(m)
    assert list(granules) == [FLASH >> 4, (FLASH >> 4) + 1, FLASH >> 4, (FLASH >> 4) + 2,
                              (FLASH >> 4) + 1] and dropped == 0
    two_lines = memory.Cache("D", 32, 16, 2)
    # miss = one 16-byte access of 1 + 3 cycles, less the cycle the load takes anyway = 3
    t = terms(m, system(flash_ws=3, data_cache=two_lines))
    assert t["data_memory"] == 4 * 3
    # an 8-byte-wide memory needs two accesses per 16-byte line: 2 x 4 - 1 = 7 per miss
    t = terms(m, system(flash_ws=3, flash_width=8, data_cache=two_lines))
    assert t["data_memory"] == 4 * 7
    # without the cache every beat waits: 6 loads x 3
    assert terms(m, system(flash_ws=3))["data_memory"] == 6 * 3


def test_compiled_and_python_ops_trace_the_same_granules():
    fast, slow = fresh(trace_loads=True), fresh(trace_loads=True)
    _flash_loads(fast)
    body = {name: op.body for name, op in ops.OPS.items()}
    for address in (FLASH, FLASH + 4, FLASH + 16, FLASH, FLASH + 32, FLASH + 16):
        body["ldr"](slow, address)
    ops.ldm4(fast, FLASH + 40)          # 16 bytes from +40: granules 2 and 3
    body["ldm4"](slow, FLASH + 40)
    assert list(machine.load_trace(fast)[0]) == list(machine.load_trace(slow)[0])
    assert list(machine.load_trace(fast)[0])[-2:] == [(FLASH >> 4) + 2, (FLASH >> 4) + 3]


def test_sram_loads_are_not_traced_and_an_untraced_machine_has_no_trace():
    m = fresh(trace_loads=True)
    ops.ldr(m, SRAM)
    assert len(machine.load_trace(m)[0]) == 0
    assert machine.load_trace(fresh()) is None


def test_recording_loads_context_sets_the_default():
    with machine.recording_loads():
        assert fresh().trace is not None
    assert fresh().trace is None


def test_machines_built_in_one_recording_block_share_one_restarted_trace():
    with machine.recording_loads():
        first = fresh()
        ops.ldr(first, FLASH)
        assert len(machine.load_trace(first)[0]) == 1
        second = fresh()
        assert second.trace is first.trace and len(machine.load_trace(second)[0]) == 0
        assert fresh(trace_loads=True).trace is not first.trace      # asked for: its own
    with machine.recording_loads():
        assert fresh().trace is not first.trace


def test_a_data_cache_without_a_trace_is_a_clear_error():
    m = fresh()
    ops.ldr(m, FLASH)
    with pytest.raises(ValueError, match="recording_loads"):
        terms(m, system(flash_ws=1, data_cache=memory.Cache("D", 32, 16, 2)))


def test_trace_overflow_is_reported_not_guessed():
    m = fresh(trace_loads=True)
    small = m._replace(trace=np.zeros(machine.TRACE_HEADER + 2, np.int64))   # room for 2
    small.trace[machine.TRACE_LAST] = -1
    for k in range(4):
        ops.ldr(small, FLASH + 16 * k)
    granules, dropped = machine.load_trace(small)
    assert list(granules) == [FLASH >> 4, (FLASH >> 4) + 1] and dropped == 2
    with pytest.raises(ValueError, match="overflow"):
        terms(small, system(flash_ws=1, data_cache=memory.Cache("D", 32, 16, 2)))


def test_flat_wait_states_and_a_memory_system_do_not_mix():
    m = fresh()
    with pytest.raises(ValueError, match="not both"):
        cores.breakdown(m, "cortex-m4", flash_wait_states=1, region_names=REGIONS,
                        memory_system=system())


@pytest.mark.parametrize("bad", [memory.Cache("odd line", 96, 24, 1),
                                 memory.Cache("3 sets", 48, 16, 1)])
def test_cache_geometry_the_trace_cannot_replay_is_refused(bad):
    with pytest.raises(ValueError):
        memory.cache_misses([0, 1], bad)


def test_placement_in_a_missing_memory_is_refused():
    with pytest.raises(ValueError, match="no memory"):
        system().placed(sram="itcm")
    broken = replace(system(), placement={"flash": "flash", "sram": "sram", "stack": "psram"})
    with pytest.raises(ValueError, match="psram"):
        broken.check()
