"""Board presets: core, clock and memory system of real development boards, every figure cited.

`armsim profile MODEL --board ek-ra6m4` prices the run with the board's core table
(`armsim.cpu.cores`) and memory system (`armsim.cpu.memory`).  Each number below carries the
document it comes from (vendor reference manual, data sheet, or the vendor's own startup code
where that is where the figure is written down; ../shared/facts/boards.md lists the ones
found so far with their original sources).  A figure that no stored document gave is marked
``assumption:``, says why the value was chosen, and carries a `Range` of the values it could
plausibly take, each end cited (sibling parts, the family, the architecture): `armsim
profile --board` reports the cycles at the ends of those ranges (`armsim.cpu.memory`,
"Assumed figures").  Nothing here is fitted to a published benchmark result.  Every figure
can be overridden (`configure`, and the CLI's ``--clock-mhz``, ``--flash-wait-states``,
``--sram-wait-states``, ``--wait-states MEMORY=N``, ``--arena``, ``--stack``, ``--weights``,
``--no-caches``, ``--no-cache NAME``); an overridden figure is no longer an assumption.

Wait states depend on the clock: each memory's `WaitStates` is the vendor's table (the highest
clock each number of wait states allows), so ``--clock-mhz`` re-derives them.
"""
from dataclasses import dataclass, field, replace

from armsim.cpu.memory import (FETCH_SOURCES, Cache, InstructionFetch, Memory, MemorySystem,
                               Range, figures)

ASSUMPTION = "assumption: "


@dataclass(frozen=True)
class WaitStates:
    """A vendor wait-state table: `max_mhz[n]` is the highest clock with n wait states;
    `core_cycles_per` converts memory-clock wait states to core cycles (1 when the memory
    runs at the core clock).  An assumed table carries `plausible`: (the fastest table,
    the slowest table, the basis of both), whose wait states at a clock are the ends of the
    figure's `Range` there."""
    max_mhz: tuple
    source: str
    memory_clock_divider: int = 1
    plausible: tuple = None

    def at(self, clock_mhz):
        for n, limit in enumerate(self.max_mhz):
            if clock_mhz / self.memory_clock_divider <= limit + 1e-9:
                return (n + 1) * self.memory_clock_divider - 1
        raise ValueError(f"{clock_mhz:g} MHz is above this memory's fastest setting "
                         f"({self.max_mhz[-1] * self.memory_clock_divider:g} MHz; {self.source})")

    def range_at(self, clock_mhz):
        """The `Range` of an assumed table's wait states at `clock_mhz` (None: cited)."""
        if self.plausible is None:
            return None
        fastest, slowest, basis = self.plausible
        return Range(replace(self, max_mhz=fastest).at(clock_mhz),
                     replace(self, max_mhz=slowest).at(clock_mhz), basis)

    def describe(self):
        return ", ".join(f"{n} up to {limit * self.memory_clock_divider:g} MHz"
                         for n, limit in enumerate(self.max_mhz))


@dataclass(frozen=True)
class Board:
    name: str
    title: str
    core: str
    clock_mhz: float
    memories: dict                  # name -> Memory (wait states filled in by `configure`)
    wait_tables: dict               # memory name -> WaitStates
    fetch: InstructionFetch
    placement: dict                 # machine region / "stack" -> memory name
    sources: dict = field(default_factory=dict)
    notes: str = ""

    def memory_system(self, clock_mhz=None):
        clock = clock_mhz or self.clock_mhz
        mems = {}
        for name, mem in self.memories.items():
            table = self.wait_tables.get(name)
            if table is not None:
                plausible = table.range_at(clock)
                mem = replace(mem, wait_states=table.at(clock),
                              sources={**mem.sources, "wait_states": table.source},
                              ranges={**mem.ranges, **({"wait_states": plausible}
                                                       if plausible else {})})
            mems[name] = mem
        return MemorySystem(mems, self.fetch, dict(self.placement),
                            {"placement": self.sources["placement"]})


@dataclass(frozen=True)
class Configuration:
    """What a run is priced with: a board preset after the command line's overrides."""
    board: str
    core: str
    clock_mhz: float
    memory: MemorySystem
    overrides: tuple                # the figures the user changed, as "name=value"

    def describe(self):
        placement = self.memory.placement
        mems = self.memory.memories
        parts = [f"{self.board}: {self.core} @ {self.clock_mhz:g} MHz",
                 f"weights in {placement['flash']} ({mems[placement['flash']].wait_states} ws)",
                 f"arena in {placement['sram']} ({mems[placement['sram']].wait_states} ws)"]
        if placement["stack"] != placement["sram"]:
            parts.append(f"stack in {placement['stack']} "
                         f"({mems[placement['stack']].wait_states} ws)")
        caches = [c.name for c in self.caches()]
        parts.append("caches: " + (", ".join(caches) if caches else "none"))
        priced = [label for label, where, _ in self.memory.assumptions()
                  if self.memory.prices(where)]
        if priced:
            parts.append("priced at both ends of their ranges: " + ", ".join(priced))
        if self.overrides:
            parts.append("overridden: " + ", ".join(self.overrides))
        return "; ".join(parts)

    def caches(self):
        """The distinct caches of this configuration (instruction and data)."""
        return self.memory.caches()

    def to_json(self):
        return {"board": self.board, "summary": self.describe(), "core": self.core,
                "clock_mhz": self.clock_mhz,
                "placement": dict(self.memory.placement),
                "memories": {n: {"wait_states": m.wait_states, "width_bytes": m.width_bytes,
                                 "data_cache": m.data_cache and m.data_cache.name}
                             for n, m in self.memory.memories.items()},
                "instruction_cache": self.memory.fetch.cache and self.memory.fetch.cache.name,
                "prefetch": self.memory.fetch.prefetch,
                "assumed": [{"figure": label, "low": r.low, "high": r.high, "basis": r.basis,
                             "priced": self.memory.prices(where)}
                            for label, where, r in self.memory.assumptions()],
                "overrides": list(self.overrides)}


def configure(name, clock_mhz=None, wait_states=None, arena=None, weights=None, caches=True,
              core=None, stack=None, no_cache=()):
    """The `Configuration` of board `name` with overrides: `core` replaces the board's core
    table, `wait_states` maps memory names to wait states (replacing the table's and its
    range), `arena` / `stack` / `weights` name the memory the tensor arena, the stack or the
    weights live in, `caches=False` removes every cache, `no_cache` the caches it names
    (`Cache.switch`, e.g. ``("s-cache",)``)."""
    board = board_named(name)
    clock = clock_mhz or board.clock_mhz
    if clock <= 0:
        raise ValueError("clock must be positive")
    system = board.memory_system(clock)
    overrides = []
    if clock_mhz and clock_mhz != board.clock_mhz:
        overrides.append(f"clock_mhz={clock_mhz:g}")
    if core and core != board.core:
        overrides.append(f"core={core}")
    mems = dict(system.memories)
    for mem_name, n in (wait_states or {}).items():
        if n is None:
            continue
        if mem_name not in mems:
            raise ValueError(f"board {name} has no memory {mem_name!r} "
                             f"(memories: {', '.join(mems)})")
        if n < 0:
            raise ValueError(f"negative wait states for {mem_name}")
        mem = mems[mem_name]
        mems[mem_name] = replace(mem, wait_states=n,
                                 sources={**mem.sources, "wait_states": "command line"},
                                 ranges={k: v for k, v in mem.ranges.items()
                                         if k != "wait_states"})
        overrides.append(f"{mem_name}_wait_states={n}")
    system = replace(system, memories=mems)
    if not caches:
        system = system.without_caches()
        overrides.append("caches=off")
    elif no_cache:
        system = system.without_caches(tuple(no_cache))
        overrides += [f"{switch}=off" for switch in no_cache]
    where = {}
    if arena:
        where["sram"] = arena
        overrides.append(f"arena={arena}")
    if stack:
        where["stack"] = stack
        overrides.append(f"stack={stack}")
    if weights:
        where["flash"] = weights
        overrides.append(f"weights={weights}")
    if where:
        system = system.placed(**where)
    system.check()
    return Configuration(board.name, core or board.core, clock, system, tuple(overrides))


# --- the presets ---------------------------------------------------------------------------

_ISSUE_PLACEMENT = ("armsim's TFLM layout (armsim.pipeline.harness.layout): constant tensors "
                    "(weights, bias, quantization) in flash, the tensor arena and the stack in "
                    "SRAM, as a default TFLM build links them")
_STANDARD_PLACEMENT = {"flash": "flash", "sram": "sram", "stack": "sram"}

# --- the ranges of assumed figures, each end cited ----------------------------------------

_NRF5340_CACHE = ("Nordic nRF5340 Product Specification, 'CACHE'; nrfx aa83d4df "
                  "bsp/stable/mdk/nrf5340_application.h: 256 sets x 2 ways x 16 B = 8 KB")
_BUS_CACHE_SIZE = Range(4096, 16384, (
    "the bus caches beside a Cortex-M33 in the cited documents hold 8 KB (" + _NRF5340_CACHE
    + "); half to double that is taken as the plausible span"))
_BUS_CACHE_WAYS = Range(1, 4, (
    "direct-mapped (ST's Cortex-M33 ICACHE can be set to 1-way: STM32U5 / STM32C5 HAL ICACHE "
    "documentation, 'Main features') to 4-way (the Cortex-M7 L1 D-cache, Arm DDI 0489 'Level "
    "1 caches'); the Cortex-M33 bus caches in the cited documents are 2-way (" + _NRF5340_CACHE
    + "; Arm CoreLink SSE-200 TRM 101104, 2.4.3: 2-way, 16-byte lines)"))
_BUS_CACHE_LINE = Range(16, 32, (
    "16 bytes (" + _NRF5340_CACHE + "; Arm CoreLink SSE-200 TRM 101104, 2.4.3) to 32 bytes "
    "(the RA6M4 C-cache and S-cache at reset: ra-rs/ra 16bafa98 pac/ra6m4/src/cache/ccalcf.rs, "
    "scalcf.rs)"))
_FLASH_READ = Range(8, 16, (
    "the flash reads of the other presets' accelerators: 64 bits (STM32G4, 4 x 64-bit ART "
    "lines, ST RM0440 3.3.4) to 128 bits (STM32F4 ART, ST RM0090 Rev 21 3.5.2; nRF5340 "
    "128-bit cache lines)"))
_FLASH_MHZ_PER_WAIT = (
    "the embedded-flash tables of the other presets: 20 MHz per wait state (STM32L4+ range 1, "
    "STM32CubeL4 stm32l4xx_ll_utils.c UTILS_SCALE1_LATENCYn_FREQ) to 70 MHz per wait state "
    "(STM32H743 at VOS1, ST RM0433, in its 200 MHz AXI clock)")
_PREFETCH = Range(False, True, "no document says; with a cache in front of fetch it changes "
                               "nothing (fetch through a cache hits), without one both ends "
                               "are priced")


def _art_ways(lines):
    return Range(2, lines, (
        "RM0090 Rev 21 3.5.2 describes a replacement among the ART's lines but not their "
        "mapping: from 2-way (the least associative cache with a choice of line to replace) "
        f"to fully associative ({lines} ways), as ST documents the STM32H745/747's ART "
        "(RM0399 'ART accelerator features': 'fully-associative cache' of 64 lines)"))


_ART_WAYS = (ASSUMPTION + "fully associative: the STM32F4 reference manual (RM0090 Rev 21 "
             "3.5.2) gives the ART's lines but not its mapping; for the STM32H745/747 ST "
             "documents its ART accelerator as a 'fully-associative cache' of 64 lines "
             "(RM0399, section 'ART accelerator features')")

_SRAM_ZERO = Memory("sram", 0, 4, sources={
    "wait_states": "on-chip SRAM at the core clock, zero wait states (the reference manual's "
                   "'Embedded SRAM' section)",
    "width_bytes": "one 32-bit AHB beat (Arm Cortex-M TRMs: 32-bit system bus)"})


def _ra6m4():
    fsp = "renesas/fsp e163d583 ra/fsp/src/bsp/mcu/ra6m4/bsp_feature.h"
    clocks = "ra/fsp/src/bsp/mcu/all/bsp_clocks.c"
    enable = ("renesas/fsp e163d583 ra/fsp/src/bsp/mcu/all/bsp_common.h R_BSP_FlashCacheEnable() "
              f"(called at start-up by {clocks}): FCACHEE = 1, CCALCF = "
              "BSP_CFG_C_CACHE_LINE_SIZE, CCACTL = 1; registers R_FCACHE, R_CACHE of the CMSIS "
              "device header R7FA6M4AF.h")
    line = ("ra-rs/ra 16bafa98 pac/ra6m4/src/cache/{reg}.rs (generated from Renesas' SVD): "
            "{reg_up}.{field} reset value 1 = 32-byte lines (2 = 64 bytes)")
    mlperf = ("mlcommons/tiny_results_v0.7 64623f41 closed/renesas/code/EK_RA6M4/src/"
              "hal_entry.c lines 42-48: SCALCF = BSP_CFG_C_CACHE_LINE_SIZE (1U, ra_cfg/fsp_cfg/"
              "bsp/bsp_mcu_family_cfg.h), SCACTL = 1, before the benchmark starts")
    unknown = "not found in the stored documents (Renesas R01UH0890 'Caches' has it)"
    c_cache = Cache("RA6M4 C-cache", 8192, 32, 2, key="c-cache", sources={
        "line_bytes": line.format(reg="ccalcf", reg_up="CCALCF", field="CC")
                      + "; FSP keeps it (BSP_CFG_C_CACHE_LINE_SIZE (1U))",
        "size_bytes": ASSUMPTION + "8 KB; the C-cache capacity was " + unknown,
        "ways": ASSUMPTION + "2-way; the C-cache associativity was " + unknown},
        ranges={"size_bytes": _BUS_CACHE_SIZE, "ways": _BUS_CACHE_WAYS})
    s_cache = Cache("RA6M4 S-cache", 8192, 32, 2, key="s-cache", sources={
        "line_bytes": line.format(reg="scalcf", reg_up="SCALCF", field="CS")
                      + f"; the MLPerf Tiny firmware writes 1 ({mlperf})",
        "size_bytes": ASSUMPTION + "8 KB, as the C-cache; the S-cache capacity was " + unknown,
        "ways": ASSUMPTION + "2-way, as the C-cache; the S-cache associativity was " + unknown},
        ranges={"size_bytes": _BUS_CACHE_SIZE, "ways": _BUS_CACHE_WAYS})
    return Board(
        "ek-ra6m4", "Renesas EK-RA6M4 (R7FA6M4AF3CFB)", "cortex-m33", 200.0,
        memories={
            "flash": Memory("flash", 0, 16, c_cache, sources={
                "width_bytes": ASSUMPTION + "128-bit code-flash read (width not found in the "
                                            "stored documents)",
                "data_cache": f"{enable}; the Cortex-M33 reads code-flash constants over the "
                              "code bus (C-AHB, addresses below 0x20000000), through the "
                              "C-cache"},
                ranges={"width_bytes": _FLASH_READ}),
            "sram": Memory("sram", 0, 4, s_cache, sources={
                "width_bytes": "one 32-bit AHB beat (Arm Cortex-M33 TRM: 32-bit system AHB); "
                               "an S-cache line fill is 8 of them",
                "data_cache": f"{mlperf}; the Cortex-M33 reads SRAM (0x20000000) over the "
                              "system bus (S-AHB), through the S-cache.  FSP's start-up "
                              "leaves the S-cache off (--no-cache s-cache)"}),
        },
        wait_tables={
            "flash": WaitStates((50, 100, 150, 200), f"{fsp}: BSP_FEATURE_SYSC_CLOCK_FREQ_ONE/"
                                "TWO/THREE_ROM_WAITS = 50/100/150 MHz, written to FCACHE.FLWT "
                                f"by {clocks}: 3 wait cycles above 150 MHz"),
            "sram": WaitStates((100, 200), f"{fsp}: BSP_FEATURE_SYSC_CLOCK_FREQ_NO_RAM_WAITS = "
                               f"100 MHz; above it {clocks} sets SRAMWTSC to "
                               "BSP_FEATURE_SRAM_SRAMWTSC_WAIT_CYCLE_ENABLE (one wait on all "
                               "SRAM regions)"),
        },
        fetch=InstructionFetch("flash", prefetch=False, cache=c_cache, sources={
            **FETCH_SOURCES,
            "prefetch": f"{fsp}: BSP_FEATURE_FLASH_PREFETCH_BUFFER (0UL)",
            "cache": f"{fsp}: BSP_FEATURE_FLASH_CACHE (1UL); {enable}"}),
        placement=_STANDARD_PLACEMENT,
        sources={"core": "RA6M4 data sheet R01DS0395: Arm Cortex-M33",
                 "clock_mhz": "RA6M4 data sheet R01DS0395: ICLK up to 200 MHz; MLPerf Tiny "
                              "v0.7 closed/renesas ran at 200 MHz (ra_gen/bsp_clock_cfg.h: "
                              "24 MHz XTAL / 3 x 25, ICLK / 1)",
                 "placement": _ISSUE_PLACEMENT},
        notes="MLPerf Tiny v0.7 reference board (closed/renesas): GCC 8.3.1, -O3.  The S-cache "
              "is on, as that firmware runs it; FSP's start-up alone leaves it off: "
              "--no-cache s-cache")


def _stm32f4(name, title, clock, table, rm, ds, external=None, notes="", table_source=None):
    """An STM32F4 board: ART accelerator as ST RM0090 Rev 21 documents the family's
    (sections 3.2, 3.5.1, 3.5.2): 128-bit flash lines, instruction cache 64 x 128 bits, data
    cache 8 x 128 bits, prefetch.  `external`: further memories (external RAM on the FMC)."""
    art = ("ST RM0090 Rev 21 (STM32F4 family), sections 3.2 and 3.5.2, ART accelerator"
           + ("" if rm.startswith("ST RM0090") else f"; {rm.split(' (')[0]} not checked"))
    i_cache = Cache("ART I-cache", 64 * 16, 16, 64, key="art-i", sources={
        "size_bytes": f"{art}: instruction cache of 64 lines of 128 bits",
        "line_bytes": f"{art}: 128-bit lines",
        "ways": _ART_WAYS}, ranges={"ways": _art_ways(64)})
    d_cache = Cache("ART D-cache", 8 * 16, 16, 8, key="art-d", sources={
        "size_bytes": f"{art}: data cache of 8 lines of 128 bits",
        "line_bytes": f"{art}: 128-bit lines",
        "ways": _ART_WAYS}, ranges={"ways": _art_ways(8)})
    return Board(
        name, title, "cortex-m4", clock,
        memories={"flash": Memory("flash", 0, 16, d_cache, sources={
                      "width_bytes": f"{art}: 128-bit flash read",
                      "data_cache": f"{art}: DCEN, enabled by STM32CubeF4 (DATA_CACHE_ENABLE 1)"}),
                  "sram": _SRAM_ZERO, **(external or {})},
        wait_tables={"flash": WaitStates(table, table_source or f"{rm}, table 'Number of wait "
                                         "states according to CPU clock (HCLK) frequency', "
                                         "2.7-3.6 V")},
        fetch=InstructionFetch("flash", prefetch=True, cache=i_cache, sources={
            **FETCH_SOURCES,
            "prefetch": f"{art}: PRFTEN, enabled by STM32CubeF4 (PREFETCH_ENABLE 1)",
            "cache": f"{art}: ICEN, enabled by STM32CubeF4 (INSTRUCTION_CACHE_ENABLE 1)"}),
        placement=_STANDARD_PLACEMENT,
        sources={"core": f"{ds}: Arm Cortex-M4 with FPU", "clock_mhz": f"{ds}: up to {clock:g} MHz",
                 "placement": _ISSUE_PLACEMENT},
        notes=notes)


def _f429_sdram():
    """The 32F429IDISCOVERY's SDRAM (8 MB on the FMC), priced per word beat.  No cache sits
    in front of it on a Cortex-M4: every access pays the SDRAM's read latency."""
    bsp = ("ST 32F429IDISCOVERY BSP (github.com/STMicroelectronics/32f429idiscovery-bsp, "
           "d77779a)")
    per_half = 3 * 2 + 1        # CAS latency 3 SDCLK x (HCLK / SDCLK = 2) + read pipe delay 1
    return {"extram": Memory("extram", 2 * per_half - 1, 2, sources={
        "width_bytes": f"{bsp} stm32f429i_discovery_sdram.h: SDRAM_MEMORY_WIDTH "
                       "FMC_SDRAM_MEM_BUS_WIDTH_16 (16-bit data bus)",
        "wait_states": ASSUMPTION + f"13 = 2 x {per_half} - 1 core cycles per word beat, "
                       f"derived from {bsp} stm32f429i_discovery_sdram.h/.c: SDCLOCK_PERIOD "
                       "FMC_SDRAM_CLOCK_PERIOD_2 (SDCLK = HCLK / 2), SDRAM_CAS_LATENCY 3, "
                       "ReadPipeDelay FMC_SDRAM_RPIPE_DELAY_1 (1 HCLK), SDRAM_READBURST "
                       "disabled and burst length 1; assumed: a 32-bit beat is two 16-bit "
                       "READs (ST RM0090 'FMC': an AHB access wider than the memory is split "
                       "into consecutive accesses) that do not overlap, the row is open (row "
                       "activation tRP + tRCD = 2 + 2 SDCLK per 512-byte row and refresh not "
                       "counted), stores cost as much as loads"},
        ranges={"wait_states": Range(2 * per_half - 1 - 5, 2 * per_half - 1 + 8, (
            f"8: the second 16-bit READ pipelined one SDCLK behind the first (JEDEC SDRAM "
            f"READs issue every clock, data CAS latency later: {per_half} + 2 HCLK per word); "
            f"21: every beat opens its row first (tRP + tRCD = 2 + 2 SDCLK = 8 HCLK more, "
            f"{bsp} timings)"))})}


def _l4r5():
    rm = "ST RM0432 (STM32L4+ reference manual), section 3.3 'Flash memory interface'"
    g4 = ("not found in RM0432 (../shared/facts/boards.md); the same-generation STM32G4's, "
          "ST RM0440 sections 3.2 and 3.3.4")
    lines_basis = ("the documented siblings: 16-byte lines in the STM32F4 (ST RM0090 Rev 21 "
                   "3.5.2: 128 bits) to 32 (STM32G4, RM0440 3.3.4: 4 x 64 bits)")
    i_cache = Cache("ART I-cache", 32 * 32, 32, 32, key="art-i", sources={
        "size_bytes": ASSUMPTION + f"1 KB (32 lines of 4 x 64 bits), {g4}",
        "line_bytes": ASSUMPTION + f"4 x 64-bit lines, {g4}",
        "ways": _ART_WAYS},
        ranges={"size_bytes": Range(1024, 1024, "1 KB in both documented siblings: 64 x 128 "
                                    "bits in the STM32F4 (RM0090 Rev 21 3.5.2), 32 x 4 x 64 "
                                    "bits in the STM32G4 (RM0440 3.3.4)"),
                "line_bytes": Range(16, 32, lines_basis), "ways": _art_ways(64)})
    d_cache = Cache("ART D-cache", 8 * 32, 32, 8, key="art-d", sources={
        "size_bytes": ASSUMPTION + f"256 bytes (8 lines of 4 x 64 bits), {g4}",
        "line_bytes": ASSUMPTION + f"4 x 64-bit lines, {g4}",
        "ways": _ART_WAYS},
        ranges={"size_bytes": Range(128, 256, "8 lines in both documented siblings: 8 x 16 "
                                    "bytes in the STM32F4 (RM0090 Rev 21 3.5.2), 8 x 32 in "
                                    "the STM32G4 (RM0440 3.3.4)"),
                "line_bytes": Range(16, 32, lines_basis), "ways": _art_ways(16)})
    return Board(
        "nucleo-l4r5zi", "ST NUCLEO-L4R5ZI (STM32L4R5ZI)", "cortex-m4", 120.0,
        memories={"flash": Memory("flash", 0, 8, d_cache, sources={
                      "width_bytes": f"{rm}: 64-bit flash read",
                      "data_cache": f"{rm}: DCEN, enabled by STM32CubeL4 (DATA_CACHE_ENABLE 1)"}),
                  "sram": _SRAM_ZERO},
        wait_tables={"flash": WaitStates((20, 40, 60, 80, 100, 120), "STM32CubeL4 Drivers/"
                                         "STM32L4xx_HAL_Driver/Src/stm32l4xx_ll_utils.c: "
                                         "UTILS_SCALE1_LATENCY1..5_FREQ for STM32L4R5xx, 20 MHz "
                                         "per wait state in range 1 (120 MHz: 5)")},
        fetch=InstructionFetch("flash", prefetch=False, cache=i_cache, sources={
            **FETCH_SOURCES,
            "prefetch": f"{rm}: PRFTEN, left off by STM32CubeL4 (PREFETCH_ENABLE 0)",
            "cache": f"{rm}: ICEN, enabled by STM32CubeL4 (INSTRUCTION_CACHE_ENABLE 1)"}),
        placement=_STANDARD_PLACEMENT,
        sources={"core": "ST DS12023 (STM32L4R5xx data sheet): Arm Cortex-M4 with FPU",
                 "clock_mhz": "ST DS12023: up to 120 MHz (Range 1 boost); MLPerf Tiny ST submissions ran at 120 MHz",
                 "placement": _ISSUE_PLACEMENT})


def _m7(name, title, clock, table, divider, rm, ds, flash_width, itcm, dtcm):
    trm = "Arm Cortex-M7 TRM (DDI 0489), 'Level 1 caches'"
    i_cache = Cache("L1 I-cache", 16 * 1024, 32, 2, key="l1-i", sources={
        "size_bytes": f"{ds}: 16 Kbytes of instruction cache",
        "line_bytes": f"{trm}: 32-byte lines", "ways": f"{trm}: instruction cache 2-way"})
    d_cache = Cache("L1 D-cache", 16 * 1024, 32, 4, key="l1-d", sources={
        "size_bytes": f"{ds}: 16 Kbytes of data cache",
        "line_bytes": f"{trm}: 32-byte lines", "ways": f"{trm}: data cache 4-way"})
    return Board(
        name, title, "cortex-m7", clock,
        memories={
            "flash": Memory("flash", 0, flash_width, d_cache, sources={
                "width_bytes": f"{rm}: {flash_width * 8}-bit flash word",
                "data_cache": f"{trm}: flash (normal, cacheable memory) is read through the D-cache, enabled by SCB_EnableDCache in STM32Cube's startup"}),
            "sram": Memory("sram", 0, 8, sources={
                "wait_states": f"{rm}: AXI SRAM at the core clock",
                "width_bytes": f"{rm}: AXI SRAM, 64-bit AXI bus at the core clock; data cached by the L1 D-cache (zero added wait states assumed on hits and write-backs)"}),
            "dtcm": Memory("dtcm", 0, 8, sources={
                "wait_states": f"{trm}: TCM accesses at zero wait states",
                "width_bytes": f"{trm}: DTCM, 2 x 32-bit interfaces, zero wait states ({dtcm} KB)"}),
            "itcm": Memory("itcm", 0, 8, sources={
                "wait_states": f"{trm}: TCM accesses at zero wait states",
                "width_bytes": f"{trm}: ITCM, 64-bit interface, zero wait states ({itcm} KB)"}),
        },
        wait_tables={"flash": WaitStates(table, f"{rm}, table 'Number of wait states according to CPU clock (HCLK) frequency'"
                                         + (f", counted in AXI clock (core / {divider})" if divider > 1 else ""),
                                         divider)},
        fetch=InstructionFetch("flash", prefetch=True, cache=i_cache, sources={
            **FETCH_SOURCES,
            "prefetch": f"{trm}: the prefetch unit fetches ahead of execution",
            "cache": f"{trm}: L1 I-cache, enabled by SCB_EnableICache in STM32Cube's startup"}),
        placement=_STANDARD_PLACEMENT,
        sources={"core": f"{ds}: Arm Cortex-M7", "clock_mhz": f"{ds}: up to {clock:g} MHz",
                 "placement": _ISSUE_PLACEMENT})


def _nrf5340():
    ps = "Nordic nRF5340 Product Specification, 'CACHE - Instruction/data cache'"
    cache = Cache("nRF5340 cache", 8192, 16, 2, key="cache", sources={
        "line_bytes": f"{ps}: 128-bit cache line", "ways": f"{ps}: two-way set associative, LRU",
        "size_bytes": "Nordic nrfx aa83d4df bsp/stable/mdk/nrf5340_application.h: "
                      "NRF_CACHEDATA_Type, SET[256] x WAY[2] x 128 bits, 'Size = 8192 (0x2000)'"})
    return Board(
        "nrf5340-dk", "Nordic nRF5340 DK (application core)", "cortex-m33", 128.0,
        memories={"flash": Memory("flash", 0, 16, cache, sources={
                      "width_bytes": f"{ps}: 128-bit lines filled from flash",
                      "data_cache": f"{ps}: both instruction and data accesses to flash are "
                                    "cached (Zephyr CONFIG_NRF_ENABLE_CACHE=y by default)"}),
                  "sram": _SRAM_ZERO},
        wait_tables={"flash": WaitStates(
            (64, 128), ASSUMPTION + "1 wait state at 128 MHz; no flash wait-state table for the "
                                    "nRF5340 was found (../shared/facts/boards.md)",
            plausible=(tuple(70 * k for k in range(1, 3)), tuple(20 * k for k in range(1, 8)),
                       _FLASH_MHZ_PER_WAIT))},
        fetch=InstructionFetch("flash", prefetch=False, cache=cache, sources={
            **FETCH_SOURCES,
            "prefetch": ASSUMPTION + "no prefetcher documented",
            "cache": f"{ps}: instruction fetches are cached"}, ranges={"prefetch": _PREFETCH}),
        placement=_STANDARD_PLACEMENT,
        sources={"core": "nRF5340 Product Specification: application core Arm Cortex-M33 with DSP and FPU",
                 "clock_mhz": "nRF5340 Product Specification: application core up to 128 MHz",
                 "placement": _ISSUE_PLACEMENT})


def _mcxn947():
    unknown = "the LPCAC geometry was not found (../shared/facts/boards.md)"
    init = ("hathach/nxp_driver sdk/devices/MCXN947/system_MCXN947_cm33_core0.c: SystemInit "
            "clears LPCAC_CTRL.DIS_LPCAC (reset value 1 = disabled)")
    cache = Cache("MCX N LPCAC", 16 * 1024, 16, 2, key="lpcac", sources={
        "size_bytes": ASSUMPTION + "16 KB; " + unknown,
        "line_bytes": ASSUMPTION + "16-byte (128-bit flash word) lines; " + unknown,
        "ways": ASSUMPTION + "2-way; " + unknown},
        ranges={"size_bytes": _BUS_CACHE_SIZE, "line_bytes": _BUS_CACHE_LINE,
                "ways": _BUS_CACHE_WAYS})
    rwsc = ("micropython ports/mcx/boards/FRDM_MCXN947/clock_config.c and Zephyr boards/nxp/"
            "frdm_mcxn947/board.c: FMU0->FCTRL RWSC = 3 for 150 MHz at 1.2 V (over-drive); "
            "MCUXpresso SDK clock_config.c: RWSC = 1 for 72 MHz")
    return Board(
        "frdm-mcxn947", "NXP FRDM-MCXN947 (MCXN947, CPU0)", "cortex-m33", 150.0,
        memories={"flash": Memory("flash", 0, 16, cache, sources={
                      "width_bytes": ASSUMPTION + "128-bit flash read",
                      "data_cache": f"{init} (the LPCAC caches the code bus)"},
                      ranges={"width_bytes": _FLASH_READ}),
                  "sram": _SRAM_ZERO},
        wait_tables={"flash": WaitStates(
            (36, 72, 110, 150), f"{rwsc}; the other limits (36, 110 MHz) are an assumption "
                                "(evenly spaced)",
            plausible=((71, 149, 149, 150), (0, 72, 72, 150),
                       f"the two cited settings bound the table ({rwsc}): below 72 MHz 0-1 "
                       "wait states, between 72 and 150 MHz 1-3"))},
        fetch=InstructionFetch("flash", prefetch=True, cache=cache, sources={
            **FETCH_SOURCES,
            "prefetch": ASSUMPTION + "flash speculation on: SYSCON->NVM_CTRL.DIS_FLASH_SPEC / "
                                     "DIS_DATA_SPEC = 0 enables it (MCXN947 device header), "
                                     f"{init.split(':')[0]} leaves them; their reset value "
                                     "was not confirmed",
            "cache": init}, ranges={"prefetch": _PREFETCH}),
        placement=_STANDARD_PLACEMENT,
        sources={"core": "NXP MCX N94x data sheet: Arm Cortex-M33 with DSP and FPU",
                 "clock_mhz": "NXP MCX N94x data sheet: up to 150 MHz; Zephyr frdm_mcxn947 runs PLL0 at 150 MHz",
                 "placement": _ISSUE_PLACEMENT})


BOARDS = {b.name: b for b in (
    _ra6m4(),
    _l4r5(),
    _stm32f4("nucleo-f413zh", "ST NUCLEO-F413ZH (STM32F413ZH)", 100.0, (25, 50, 75, 100),
             "ST RM0430 (STM32F413/423 reference manual)", "ST DS11581 (STM32F413xG/H data sheet)"),
    _stm32f4("nucleo-f446re", "ST NUCLEO-F446RE (STM32F446RE)", 180.0, (30, 60, 90, 120, 150, 180),
             "ST RM0390 (STM32F446xx reference manual)", "ST DS10693 (STM32F446xC/E data sheet)"),
    _stm32f4("stm32f429i-disc1", "ST 32F429IDISCOVERY (STM32F429ZI, 8 MB SDRAM)", 180.0,
             (30, 60, 90, 120, 150, 180), "ST RM0090 (STM32F405/415/407/417/427/437/429/439 "
             "reference manual)", "ST DS9405 (STM32F427xx/STM32F429xx data sheet)",
             external=_f429_sdram(),
             table_source="ST RM0090 Rev 21 section 3.5.1, Tables 11-12: one wait state per "
                          "30 MHz at 2.7-3.6 V (180 MHz on the STM32F42x: 5)",
             notes="external SDRAM: --arena extram places the tensor arena in it (the stack "
                   "stays on chip unless --stack says otherwise)"),
    _m7("nucleo-f767zi", "ST NUCLEO-F767ZI (STM32F767ZI)", 216.0,
        (30, 60, 90, 120, 150, 180, 210, 216), 1, "ST RM0410 (STM32F76x/77x reference manual)",
        "ST DS11532 (STM32F765/767/768/769 data sheet)", 32, 16, 128),
    _m7("stm32h743", "ST NUCLEO-H743ZI (STM32H743ZI, 400 MHz, VOS1)", 400.0,
        (70, 140, 210), 2, "ST RM0433 (STM32H742/743/750/753 reference manual)",
        "ST DS12110 (STM32H742/743/753/750 data sheet)", 32, 64, 128),
    _nrf5340(),
    _mcxn947(),
)}


def board_named(name):
    try:
        return BOARDS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown board {name!r} (known: {', '.join(BOARDS)})") from None


def cited_figures(board, clock_mhz=None):
    """(figure, value, source, Range or None) of every figure of `board` at `clock_mhz`
    (default: the board's), each once: core, clock, then the memory system's
    (`armsim.cpu.memory.figures`), a tabled memory's wait states with its table (the test
    that every preset is cited reads this)."""
    clock = clock_mhz or board.clock_mhz
    out = [("core", board.core, board.sources.get("core"), None),
           ("clock_mhz", clock, board.sources.get("clock_mhz"), None)]
    for figure, value, source, plausible in figures(board.memory_system(clock)):
        name, _, what = figure.partition(".")
        if what == "wait_states" and name in board.wait_tables:
            value = f"{value} at {clock:g} MHz (table: {board.wait_tables[name].describe()})"
        out.append((figure, value, source, plausible))
    return out


__all__ = ["BOARDS", "Board", "Configuration", "WaitStates", "board_named", "configure",
           "cited_figures"]
