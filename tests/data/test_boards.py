"""Board presets: every figure cited (an assumed one with the range it could take), wait states
re-derived from the vendor tables, overrides, placement, the RA6M4's S-cache, the build label,
and the `armsim boards` / `--board` command line with the cycles' range."""
import json

import pytest
from click.testing import CliRunner

from armsim.data import boards
from armsim.cli.main import main

REQUIRED = {"ek-ra6m4", "nucleo-l4r5zi", "nucleo-f413zh", "nucleo-f446re", "nucleo-f767zi",
            "stm32h743", "nrf5340-dk", "frdm-mcxn947"}


def test_the_issue_s_boards_are_there():
    assert REQUIRED <= set(boards.BOARDS)


@pytest.mark.parametrize("name", sorted(boards.BOARDS))
def test_every_figure_has_a_source_and_is_listed_once(name):
    figures = boards.cited_figures(boards.BOARDS[name])
    assert len(figures) >= 10
    missing = [figure for figure, _, source, _ in figures if not (source and source.strip())]
    assert not missing, missing
    labels = [figure for figure, *_ in figures]
    assert len(labels) == len(set(labels)), labels


def _assumed_fields(system):
    """(label, value, source, Range or None) of every dataclass field whose source says it
    is assumed."""
    objs = list(system.memories.values()) + system.caches() + [system.fetch]
    for obj in objs:
        for name, source in obj.sources.items():
            if "assumption" in source.lower() and name not in ("memory", "cache",
                                                               "data_cache"):
                yield f"{getattr(obj, 'name', 'fetch')}.{name}", getattr(obj, name), source, \
                    obj.ranges.get(name)


@pytest.mark.parametrize("name", sorted(boards.BOARDS))
def test_every_assumed_figure_carries_a_cited_range_holding_its_value(name):
    board = boards.BOARDS[name]
    for label, value, source, plausible in _assumed_fields(board.memory_system()):
        assert plausible is not None, label
        assert plausible.basis.strip(), label
        assert plausible.low <= value <= plausible.high, (label, value, plausible)
    for mem, table in board.wait_tables.items():
        if "assumption" in table.source.lower():
            assert table.plausible is not None, mem
            for clock in (board.clock_mhz / 2, board.clock_mhz):
                plausible = table.range_at(clock)
                assert plausible.low <= table.at(clock) <= plausible.high, (mem, clock)


def test_boards_without_assumed_figures_price_one_system():
    for name in ("nucleo-f767zi", "stm32h743"):
        assert boards.configure(name).memory.corners() == [boards.configure(name).memory]


def test_the_ra6m4_s_cache_is_on_as_the_mlperf_firmware_runs_it():
    config = boards.configure("ek-ra6m4")
    s_cache = config.memory.memory_of("sram").data_cache
    assert (s_cache.name, s_cache.line_bytes, s_cache.switch) == ("RA6M4 S-cache", 32, "s-cache")
    assert "hal_entry.c" in config.memory.memories["sram"].sources["data_cache"]
    assert config.memory.traced_regions() == ("flash", "sram")
    assert [c.switch for c in config.caches()] == ["c-cache", "s-cache"]
    # as FSP's start-up leaves it: the C-cache only, SRAM loads untraced
    fsp = boards.configure("ek-ra6m4", no_cache=("s-cache",))
    assert fsp.memory.memory_of("sram").data_cache is None
    assert fsp.memory.traced_regions() == ("flash",) and "s-cache=off" in fsp.overrides
    assert [label for label, *_ in fsp.memory.assumptions()] == [
        "flash.width_bytes", "RA6M4 C-cache.size_bytes", "RA6M4 C-cache.ways"]
    with pytest.raises(ValueError, match="caches: c-cache, s-cache"):
        boards.configure("ek-ra6m4", no_cache=("d-cache",))


def test_an_overridden_figure_is_no_longer_assumed():
    assert [label for label, *_ in boards.configure("nrf5340-dk").memory.assumptions()] == [
        "flash.wait_states", "fetch.prefetch"]
    fixed = boards.configure("nrf5340-dk", wait_states={"flash": 2})
    assert [label for label, *_ in fixed.memory.assumptions()] == ["fetch.prefetch"]


@pytest.mark.parametrize("name", sorted(boards.BOARDS))
def test_preset_core_and_memories_are_usable(name):
    config = boards.configure(name)
    from armsim.cpu import cores
    cores.core(config.core)
    config.memory.check()
    assert config.memory.placement == {"flash": "flash", "sram": "sram", "stack": "sram"}


@pytest.mark.parametrize("name, clock, flash, sram", [
    ("ek-ra6m4", 200, 3, 1),        # FSP: 3 ROM waits above 150 MHz, SRAM wait above 100 MHz
    ("ek-ra6m4", 100, 1, 0),
    ("ek-ra6m4", 48, 0, 0),
    ("nucleo-f446re", 180, 5, 0),   # RM0390: 30 MHz per wait state at 2.7-3.6 V
    ("nucleo-f446re", 150, 4, 0),
    ("nucleo-f413zh", 100, 3, 0),   # RM0430: 25 MHz per wait state
    ("nucleo-l4r5zi", 120, 5, 0),   # RM0432: 20 MHz per wait state, Range 1
    ("nucleo-f767zi", 216, 7, 0),   # RM0410
    ("stm32h743", 400, 5, 0),       # RM0433: 2 AXI-clock waits at 200 MHz = 3 x 2 - 1 core cycles
])
def test_wait_states_follow_the_vendor_table(name, clock, flash, sram):
    mems = boards.configure(name, clock_mhz=clock).memory.memories
    assert (mems["flash"].wait_states, mems["sram"].wait_states) == (flash, sram)


def test_a_clock_beyond_the_table_is_refused():
    with pytest.raises(ValueError, match="fastest"):
        boards.configure("ek-ra6m4", clock_mhz=240)


def test_overrides_are_applied_and_listed():
    config = boards.configure("ek-ra6m4", wait_states={"flash": 0, "sram": 0}, caches=False)
    mems = config.memory.memories
    assert mems["flash"].wait_states == 0 and mems["flash"].data_cache is None
    assert config.memory.fetch.cache is None
    assert set(config.overrides) == {"flash_wait_states=0", "sram_wait_states=0", "caches=off"}
    assert "overridden" in config.describe()
    assert mems["flash"].sources["wait_states"] == "command line"


def test_arena_and_weights_placement():
    config = boards.configure("nucleo-f767zi", arena="dtcm", weights="itcm")
    assert config.memory.placement == {"flash": "itcm", "sram": "dtcm", "stack": "sram"}
    assert boards.configure("nucleo-f767zi", arena="dtcm", stack="dtcm").memory.placement[
        "stack"] == "dtcm"
    assert not config.memory.needs_trace()      # weights in ITCM: no cache in front of them
    assert boards.configure("nucleo-f767zi").memory.needs_trace()
    with pytest.raises(ValueError, match="dtcm"):
        boards.configure("ek-ra6m4", arena="dtcm")


def test_unknown_board_names_the_known_ones():
    with pytest.raises(ValueError, match="ek-ra6m4"):
        boards.board_named("arduino-uno")


def test_build_label_says_mve_is_not_simulated():
    from armsim.pipeline.build import Build
    m55 = Build("simd", "gcc", "cortex-m55").describe()
    assert "MVE" in m55 and "not" in m55
    assert "MVE" not in Build("simd", "gcc", "cortex-m4").describe()


def test_build_label_names_the_path_build():
    from armsim.pipeline.build import Build
    assert "plain-C" in Build("scalar").describe() and "DSP" not in Build("scalar").describe()
    assert "TFLM reference" in Build("reference").describe()


def test_boards_command_lists_every_board_and_cites_one():
    runner = CliRunner()
    out = runner.invoke(main, ["boards"])
    assert out.exit_code == 0, out.output
    for name in REQUIRED:
        assert name in out.output
    out = runner.invoke(main, ["boards", "nucleo-f446re"])
    assert out.exit_code == 0 and "RM0390" in out.output and "no source" not in out.output
    out = runner.invoke(main, ["boards", "ek-ra6m4"])
    assert out.exit_code == 0 and "no source" not in out.output
    assert "RA6M4 S-cache" in out.output and "s-cache" in out.output
    assert "Range 4096-16384" in out.output
    out = runner.invoke(main, ["boards", "nope"])
    assert out.exit_code != 0 and "unknown board" in out.output


@pytest.mark.parametrize("args, message", [
    (["--board", "nope"], "unknown board"),
    (["--arena", "dtcm"], "give --board"),
    (["--board", "ek-ra6m4", "--arena", "dtcm"], "dtcm"),
])
def test_bad_board_options_are_one_line_errors(args, message):
    out = CliRunner().invoke(main, ["profile", *args])
    assert out.exit_code != 0 and message in out.output
    assert "Traceback" not in out.output


def test_profile_with_a_board_labels_the_cycles(tmp_path):
    out_json = tmp_path / "p.json"
    runner = CliRunner()
    plain = runner.invoke(main, ["profile", "--json", str(tmp_path / "plain.json")])
    assert plain.exit_code == 0, plain.output
    # --no-caches: no load trace needed, so the already compiled kernels serve this run
    res = runner.invoke(main, ["profile", "--board", "ek-ra6m4", "--no-caches",
                               "--json", str(out_json)])
    assert res.exit_code == 0, res.output
    assert "ek-ra6m4" in res.output and "CMSIS-NN DSP build" in res.output
    data = json.loads(out_json.read_text())
    zero = json.loads((tmp_path / "plain.json").read_text())
    assert data["board"]["board"] == "ek-ra6m4" and data["core"] == "cortex-m33"
    assert data["clock_mhz"] == 200.0 and "caches=off" in data["board"]["overrides"]
    assert data["build"].startswith("CMSIS-NN DSP build")
    assert zero["board"] is None
    # 3 flash and 1 SRAM wait states, no cache: strictly more cycles, same instructions
    assert data["total"]["instructions"] == zero["total"]["instructions"]
    assert data["total"]["cycles"] > zero["total"]["cycles"]
    # no board: nothing assumed, the range is the number itself
    assert all(o["cycles_min"] == o["cycles"] == o["cycles_max"]
               for o in zero["ops"] + [zero["total"]])
    # uncached fetch with the flash read width assumed 8-16 bytes: the narrow end costs more
    assert data["total"]["cycles_min"] == data["total"]["cycles"] < data["total"]["cycles_max"]
    assert all(o["cycles_min"] <= o["cycles"] <= o["cycles_max"] for o in data["ops"])
    assert sum(o["cycles_max"] for o in data["ops"]) == data["total"]["cycles_max"]
    assert "assumed" in res.output and data["board"]["assumed"][0]["figure"] == \
        "flash.width_bytes"


def test_the_reported_range_is_the_run_priced_at_the_range_s_ends():
    """The JSON's cycles_max on ek-ra6m4 without caches is the same model priced with the
    one assumed figure that matters (the flash read width) fixed at its narrow end."""
    from dataclasses import replace
    from armsim import api
    from armsim.pipeline import profiler
    from armsim.pipeline.build import Build
    config = boards.configure("ek-ra6m4", caches=False)
    narrow = replace(config, memory=replace(config.memory, memories={
        **config.memory.memories, "flash": replace(config.memory.memories["flash"],
                                                   width_bytes=8, ranges={})}))
    assert narrow.memory.corners() == [narrow.memory]
    model = api.load_model("example")
    ranged, fixed = (profiler.run(model, Build("simd", core=config.core),
                                  clock_mhz=config.clock_mhz, board=c) for c in (config, narrow))
    assert ranged.cycles_max == fixed.cycles > ranged.cycles == ranged.cycles_min
    assert [o.cycles_max for o in ranged.ops] == [o.cycles for o in fixed.ops]


def test_no_cache_names_the_caches_to_turn_off(tmp_path):
    runner = CliRunner()
    out = {}
    for name, args in (("both", ["--no-cache", "s-cache", "--no-cache", "c-cache"]),
                       ("all", ["--no-caches"])):
        res = runner.invoke(main, ["profile", "--board", "ek-ra6m4", *args,
                                   "--json", str(tmp_path / f"{name}.json")])
        assert res.exit_code == 0, res.output
        out[name] = json.loads((tmp_path / f"{name}.json").read_text())
    assert out["both"]["total"]["cycles"] == out["all"]["total"]["cycles"]
    assert {"s-cache=off", "c-cache=off"} <= set(out["both"]["board"]["overrides"])
    bad = runner.invoke(main, ["profile", "--board", "ek-ra6m4", "--no-cache", "d-cache"])
    assert bad.exit_code != 0 and "caches: c-cache, s-cache" in bad.output
    assert "Traceback" not in bad.output
    bad = runner.invoke(main, ["profile", "--no-cache", "s-cache"])
    assert bad.exit_code != 0 and "give --board" in bad.output


def test_m55_output_says_it_is_not_the_mve_build(tmp_path):
    out_json = tmp_path / "p.json"
    res = CliRunner().invoke(main, ["profile", "--core", "cortex-m55", "--json", str(out_json)])
    assert res.exit_code == 0, res.output
    assert "MVE" in res.output
    assert "MVE" in json.loads(out_json.read_text())["build"]


def test_the_arena_in_external_sdram_pays_its_latency_on_every_beat():
    """32F429IDISCOVERY, --arena extram: no cache in front of the SDRAM, so each arena beat
    (load or store, any size) adds the SDRAM's 13 cycles; the stack stays in on-chip SRAM and
    the weights' ART figures do not change."""
    from armsim.cpu import cores, machine, memory, ops
    on_chip = boards.configure("stm32f429i-disc1")
    external = boards.configure("stm32f429i-disc1", arena="extram")
    assert external.memory.placement == {"flash": "flash", "sram": "extram", "stack": "sram"}
    assert "arena in extram (13 ws)" in external.describe()
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 256).region("flash", machine.FLASH_BASE, 256)
    m = machine.build(mem, trace_loads=True)
    ops.ldr(m, machine.SRAM_BASE)                       # 1 beat
    ops.ldrd(m, machine.SRAM_BASE + 8)                  # 2 beats
    ops.strb(m, machine.SRAM_BASE + 16, 7)              # 1 beat
    ops.ldr(m, machine.FLASH_BASE)                      # weights: ART D-cache miss
    ops.push(m, 2)                                      # stack: 2 beats in SRAM
    regions = ("sram", "flash")
    counters = cores.Counters.of(m, regions)
    trace = machine.load_trace(m, regions)
    before, after = (memory.memory_terms(counters, c.memory, trace) for c in (on_chip, external))
    assert after["data_memory"] - before["data_memory"] == 4 * 13
    assert after["stack_memory"] == before["stack_memory"] == 0
    assert after["instruction_fetch"] == before["instruction_fetch"]
    # the SDRAM's assumed 13 cycles per beat could be 8 to 21: each arena beat moves with it
    # (the one weights load misses the ART D-cache at any associativity)
    costs = memory.corner_costs(counters, external.memory.corners(), trace)
    assert len(costs) == 1 + 4
    assert (costs.max() - costs[0], costs[0] - costs.min()) == (4 * (21 - 13), 4 * (13 - 8))
    # every number of the SDRAM can be overridden, the stack moved with it
    slower = boards.configure("stm32f429i-disc1", arena="extram", stack="extram",
                              wait_states={"extram": 20})
    t = memory.memory_terms(counters, slower.memory, trace)
    assert t["data_memory"] - before["data_memory"] == 4 * 20
    assert t["stack_memory"] == 2 * 20


def test_the_command_line_places_the_arena_in_external_ram(tmp_path):
    out = CliRunner().invoke(main, ["profile", "--board", "stm32f429i-disc1", "--no-caches",
                                    "--arena", "extram", "--wait-states", "extram=9",
                                    "--json", str(tmp_path / "p.json")])
    assert out.exit_code == 0, out.output
    board = json.loads((tmp_path / "p.json").read_text())["board"]
    assert board["placement"] == {"flash": "flash", "sram": "extram", "stack": "sram"}
    assert board["memories"]["extram"]["wait_states"] == 9
    assert {"arena=extram", "extram_wait_states=9"} <= set(board["overrides"])
    bad = CliRunner().invoke(main, ["profile", "--board", "stm32f429i-disc1",
                                    "--wait-states", "extram"])
    assert bad.exit_code != 0 and "MEMORY=N" in bad.output and "Traceback" not in bad.output


@pytest.mark.parametrize("name", sorted(boards.BOARDS))
def test_every_figure_is_shown_once(name):
    """`armsim boards NAME` lists each figure once (a cache reached through two memories, the
    placement the memory system repeats: one row)."""
    figures = [figure for figure, *_ in boards.cited_figures(boards.BOARDS[name])]
    assert len(figures) == len(set(figures)), figures
