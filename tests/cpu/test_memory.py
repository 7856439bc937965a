"""Memory-system model: each mechanism on a few real ops, against cycles worked out by hand.

The machine runs real `armsim.cpu.ops` (as tests/cpu/test_cores.py does); the memory system is
built here from `armsim.cpu.memory` dataclasses with round numbers, so every expected figure
below follows from the module docstring's rules in a line of arithmetic: wait states per
beat, LRU hits and misses, line fills, write-through stores, and the cycles at the corners
of assumed figures' ranges.
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
           prefetch=False, arena="sram", sram_cache=None, sram_ranges=None):
    """A memory system with round numbers; code is fetched through an I-cache (no fetch
    stalls) unless a test asks for `fetch_cache=None`."""
    mems = {"flash": memory.Memory("flash", flash_ws, flash_width, data_cache),
            "sram": memory.Memory("sram", sram_ws, 4, sram_cache, ranges=sram_ranges or {}),
            "dtcm": memory.Memory("dtcm", 0, 8)}
    fetch = memory.InstructionFetch("flash", prefetch, fetch_cache, bytes_per_instruction=3)
    return memory.MemorySystem(mems, fetch, {"flash": "flash", "sram": arena, "stack": arena})


def terms(m, sys_):
    return cores.breakdown(m, "cortex-m4", region_names=REGIONS, memory_system=sys_)


def memory_cycles(m, sys_):
    t = terms(m, sys_)
    return t["data_memory"] + t["stack_memory"] + t["instruction_fetch"]


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
    granules, dropped, spans = machine.load_trace(m, REGIONS)
    assert list(granules) == [FLASH >> 4, (FLASH >> 4) + 1, FLASH >> 4, (FLASH >> 4) + 2,
                              (FLASH >> 4) + 1] and dropped == 0
    assert spans["flash"] == (FLASH >> 4, (FLASH + 256) >> 4)
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


def test_only_the_regions_asked_for_are_traced_and_an_untraced_machine_has_no_trace():
    m = fresh(trace_loads=("flash",))
    ops.ldr(m, SRAM)
    assert len(machine.load_trace(m)[0]) == 0
    assert set(machine.load_trace(m, REGIONS).spans) == {"flash"}
    both = fresh(trace_loads=True)
    ops.ldr(both, SRAM)
    assert list(machine.load_trace(both)[0]) == [SRAM >> 4]
    assert machine.load_trace(fresh()) is None
    with machine.recording_loads(("sram",)):
        assert set(machine.load_trace(fresh(), REGIONS).spans) == {"sram"}
    with pytest.raises(ValueError, match="traceable"):
        fresh(trace_loads=("stack",))


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
    granules, dropped, _ = machine.load_trace(small)
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


# --- a system-bus cache in front of the arena (the RA6M4's S-cache) -----------------------

S_CACHE = memory.Cache("S", 64, 32, 2)          # 2 lines of 32 bytes, one set, LRU


def _arena_traffic(m):
    ops.ldrb(m, SRAM)           # line 0: miss, filled: 8 word beats of 1 + 1 cycles, less 1 = 15
    ops.ldrb(m, SRAM + 1)       # line 0: hit (same granule: not even traced)
    ops.ldr(m, SRAM + 16)       # line 0, second granule: hit
    ops.strb(m, SRAM + 40, 1)   # line 1 not cached: written through (1 wait), not allocated
    ops.ldr(m, SRAM + 32)       # line 1: miss (the store did not fill it)
    ops.ldr(m, SRAM + 64)       # line 2: miss, evicts line 0 (least recently used)
    ops.ldr(m, SRAM)            # line 0: miss again
    ops.push(m, 3)              # stack stores: written through, 3 x 1 wait
    ops.pop(m, 3)               # stack loads: hit the cache


def test_s_cache_hits_misses_line_fills_and_written_through_stores():
    m = fresh(trace_loads=("sram",))
    _arena_traffic(m)
    with_cache = terms(m, system(sram_ws=1, sram_cache=S_CACHE))
    assert with_cache["data_memory"] == 4 * (8 * 2 - 1) + 1
    assert with_cache["stack_memory"] == 3
    # the same run without it: every beat waits (6 load beats, 1 store; 6 stack beats)
    without = terms(m, system(sram_ws=1))
    assert (without["data_memory"], without["stack_memory"]) == (7, 6)
    assert with_cache["total"] - without["total"] == 61 - 7 + 3 - 6
    # the stack in zero-wait-state TCM, the arena still behind the S-cache
    assert terms(m, replace(system(sram_ws=1, sram_cache=S_CACHE),
                            placement={"flash": "flash", "sram": "sram",
                                       "stack": "dtcm"}))["stack_memory"] == 0


def test_flash_and_sram_behind_their_own_caches_replay_their_own_loads():
    m = fresh(trace_loads=True)
    _arena_traffic(m)
    _flash_loads(m)             # 4 misses in a 2-line cache of 16-byte lines: 4 x 3 (above)
    t = terms(m, system(flash_ws=3, data_cache=memory.Cache("D", 32, 16, 2), sram_ws=1,
                        sram_cache=S_CACHE))
    assert t["data_memory"] == 4 * 3 + 4 * 15 + 1


def test_regions_behind_one_cache_share_its_lines():
    """The arena placed in flash: its loads and the weights' compete for one cache's lines,
    and each region's misses are filled from its own memory."""
    m = fresh(trace_loads=True)
    ops.ldr(m, FLASH)           # weights line 0: miss
    ops.ldr(m, SRAM)            # arena line 0: miss, evicts nothing (2 lines)
    ops.ldr(m, FLASH + 16)      # weights line 1: miss, evicts the weights' line 0
    ops.ldr(m, FLASH)           # miss
    shared = memory.Cache("D", 32, 16, 2)
    sys_ = replace(system(flash_ws=3, data_cache=shared),
                   placement={"flash": "flash", "sram": "flash", "stack": "sram"})
    assert terms(m, sys_)["data_memory"] == 4 * 3


def test_the_stack_split_into_loads_and_stores():
    m = fresh()
    ops.push(m, 4)
    ops.pop_pc(m, 4)
    ops.ldr_sp(m)
    ops.str_sp(m)
    ops.ldrd_sp(m)
    ops.strd_sp(m)
    ops.fitted_ldr_sp(m)
    ops.ldr(m, SRAM)            # a region load: data, not stack
    counters = cores.Counters.of(m, REGIONS)
    assert memory._stack_beats(counters) == (4 + 1 + 2 + 1, 4 + 1 + 2)


# --- assumed figures: the cycles at the corners of their ranges -----------------------------

def test_an_assumed_figure_moved_to_each_end_gives_the_reported_min_and_max():
    m = fresh()
    for k in range(5):
        ops.ldr(m, SRAM + 4 * k)            # 5 arena beats
    assumed = system(sram_ws=2, sram_ranges={"wait_states": memory.Range(1, 3, "test")})
    corners = assumed.corners()
    assert [c.memories["sram"].wait_states for c in corners] == [2, 1, 3]
    total = terms(m, assumed)["total"]
    cycles = cores.corner_cycles(m, REGIONS, memory.CornerPricing(corners), total)
    assert list(cycles) == [total, total - 5, total + 5]
    for end, ws in ((cycles.min(), 1), (cycles.max(), 3)):
        assert end == terms(m, system(sram_ws=ws))["total"]


def test_corners_combine_every_end_of_every_figure():
    """Two figures: the minimum takes the low wait states with the wide flash read, the
    maximum the high wait states with the narrow one -- found by trying all four corners."""
    m = fresh(trace_loads=True)
    _flash_loads(m)                                     # 4 misses of a 16-byte line
    for k in range(5):
        ops.ldr(m, SRAM + 4 * k)
    two_lines = memory.Cache("D", 32, 16, 2)
    base = system(flash_ws=3, data_cache=two_lines, sram_ws=2,
                  sram_ranges={"wait_states": memory.Range(1, 3, "test")})
    base = replace(base, memories={**base.memories, "flash": replace(
        base.memories["flash"], ranges={"width_bytes": memory.Range(8, 16, "test")})})
    corners = base.corners()
    assert len(corners) == 1 + 4
    costs = memory.corner_costs(cores.Counters.of(m, REGIONS), corners,
                                machine.load_trace(m, REGIONS))
    # misses pay (16 / width) x (1 + 3) - 1: 7 at 8 bytes, 3 at 16; arena beats pay the ws
    assert sorted(costs[1:]) == sorted([4 * 7 + 5 * 1, 4 * 3 + 5 * 1, 4 * 7 + 5 * 3,
                                        4 * 3 + 5 * 3])
    assert (costs.min(), costs.max()) == (4 * 3 + 5, 4 * 7 + 15)
    assert costs[0] == 4 * 3 + 5 * 2                    # the preset itself


def test_a_model_s_range_is_one_board_for_every_op_not_the_sum_of_per_op_extremes():
    """Op A (three lines in turn) misses less direct-mapped, op B (two lines of one set)
    less 2-way: the model's minimum is the better of the two boards, above the sum of the
    ops' own minima."""
    from armsim.pipeline.build import Build
    from armsim.pipeline.profiler import ModelProfile, OpProfile
    cache = memory.Cache("D", 32, 16, 2, ranges={"ways": memory.Range(1, 2, "test")})
    sys_ = system(flash_ws=1, data_cache=cache)
    corners = sys_.corners()
    assert [c.memories["flash"].data_cache.ways for c in corners] == [2, 1, 2]
    pricing = memory.CornerPricing(corners)
    profiles = []
    for lines in ((0, 1, 2, 0, 1, 2), (0, 2, 0, 2)):
        m = fresh(trace_loads=True)
        for line in lines:
            ops.ldr(m, FLASH + 16 * line)
        total = terms(m, sys_)["total"]
        profiles.append(OpProfile(len(profiles), "OP", "k", False, (1,), 0, {}, total, True,
                                  corner_cycles=cores.corner_cycles(m, REGIONS, pricing,
                                                                    total)))
    a, b = profiles
    # each miss fills one 16-byte access of 1 + 1 cycles, less 1: one cycle
    assert list(a.corner_cycles - a.cycles) == [0, -1, 0]       # 6 misses 2-way, 5 direct
    assert list(b.corner_cycles - b.cycles) == [0, 2, 0]        # 2 misses 2-way, 4 direct
    model = ModelProfile("m", Build("simd"), 100.0, 0, profiles, [])
    assert model.cycles_min == model.cycles == a.cycles + b.cycles
    assert model.cycles_max == model.cycles + 1
    assert a.cycles_min + b.cycles_min == model.cycles_min - 1


def test_figures_no_term_depends_on_are_not_priced():
    cache = memory.Cache("I", 1024, 16, 64, ranges={"ways": memory.Range(2, 64, "test")})
    fetch = memory.InstructionFetch("flash", False, cache,
                                    ranges={"prefetch": memory.Range(False, True, "test")})
    sys_ = replace(system(), fetch=fetch)
    assert len(sys_.assumptions()) == 2
    assert sys_.corners() == [sys_]                     # fetch through a cache hits
    uncached = sys_.without_caches()
    assert [c.fetch.prefetch for c in uncached.corners()] == [False, False, True]


def _naive_lru_misses(lines, sets, ways):
    """An independent LRU oracle: one Python list per set, most recent last."""
    state, misses = [[] for _ in range(sets)], 0
    for line in lines:
        row = state[line % sets]
        if line in row:
            row.remove(line)
        else:
            misses += 1
            if len(row) == ways:
                row.pop(0)
        row.append(line)
    return misses


def test_one_replay_prices_every_number_of_ways_of_a_set_count():
    rng = np.random.default_rng(7)
    granules = rng.integers(0, 48, 400)             # 16-byte lines 0..47, much reuse
    one_pass = memory._lru_misses(granules, np.zeros(len(granules), np.int64), 1, 0, 4, 4)
    for ways in (1, 2, 3, 4):
        expected = _naive_lru_misses(granules, 4, ways)
        assert one_pass[0, ways - 1] == expected
        assert memory.cache_misses(granules, memory.Cache("C", 4 * ways * 16, 16, ways)) \
            == expected
