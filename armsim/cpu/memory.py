"""Memory-system models as data: what a board's memories add to a core's cycles.

`armsim.cpu.cores` prices the instructions a run executed as if every memory answered in zero
wait states.  A `MemorySystem` adds what a real board's memories cost on top, from the same
counted run: per machine region (``flash`` = constant data such as weights, ``sram`` = the
arena) and the stack, the memory it is placed in (`MemorySystem.placement`), and instruction
fetch from the memory code runs from.  Every figure is a field of a frozen dataclass whose
`sources` name the document it comes from (`armsim.data.boards` builds the presets).

Terms (added to `cores.breakdown` when a memory system is given; all integers):

* ``data_memory``  loads and stores of the machine's regions.  Without a data cache: each
  beat (word) pays the memory's wait states.  Behind a data cache (a flash accelerator's data
  lines, a Cortex-M7 L1 D-cache): the counted run's load trace (`machine.load_trace`,
  16-byte granules of the flash loads) is replayed through the cache (LRU, `Cache`); each
  miss pays `Memory.miss_cycles` (the line read from the memory), hits pay nothing.
* ``stack_memory`` the stack's beats (PUSH/POP, spills and stacked arguments: the loads and
  stores no region counted, including the few literal-pool loads) at the wait states of the
  memory the stack is placed in.
* ``instruction_fetch`` code fetched from the code memory.  armsim's kernels have no code
  addresses, so fetch is approximated from the counters: the executed instructions are
  fetched sequentially, `InstructionFetch.bytes_per_instruction` bytes each, and every taken
  branch restarts the fetch at a line that was not prefetched.  With an instruction cache
  (or a flash accelerator's instruction lines) the loops of the kernels are taken to hit
  (their bodies are far smaller than any cache here); the compulsory misses of each
  function's first pass are not counted (a few kilobytes of code per inference: well under
  0.1 % of a model's cycles at these wait states).  Without a cache, a prefetcher hides a
  sequential line's wait states while the previous line's instructions execute (one per
  cycle), so each sequential line stalls max(0, wait states + 1 - instructions per line);
  without a prefetcher each line stalls its wait states; each taken branch stalls the wait
  states of its target line.

Not modelled: bus contention between fetch and data (Harvard code/system buses are assumed
to overlap), write buffers (stores are priced like loads), critical-word-first line fills,
the code's share of a unified cache, DMA.
"""
from dataclasses import dataclass, field, fields, replace

import numpy as np

from . import machine
from .instructions import CLASS_INDEX
from .jit import jit

GRANULE_BYTES = 1 << machine.GRANULE_SHIFT


@dataclass(frozen=True)
class Cache:
    """A set-associative LRU cache (``ways == lines`` is fully associative)."""
    name: str
    size_bytes: int
    line_bytes: int
    ways: int
    sources: dict = field(default_factory=dict, compare=False)

    @property
    def lines(self):
        return self.size_bytes // self.line_bytes

    @property
    def sets(self):
        return self.lines // self.ways

    def check(self):
        if self.line_bytes % GRANULE_BYTES or self.line_bytes & (self.line_bytes - 1):
            raise ValueError(f"{self.name}: line of {self.line_bytes} bytes: the load trace "
                             f"needs a power of two, a multiple of {GRANULE_BYTES}")
        if self.lines < 1 or self.lines % self.ways or self.sets & (self.sets - 1):
            raise ValueError(f"{self.name}: {self.size_bytes} bytes in {self.line_bytes}-byte "
                             f"lines do not make a power-of-two number of {self.ways}-way sets")


@dataclass(frozen=True)
class Memory:
    """One memory of a board at the board's clock."""
    name: str
    wait_states: int          # added cycles per access (per beat when uncached)
    width_bytes: int          # bytes one access reads (a flash line read, a bus beat)
    data_cache: Cache = None  # in front of data loads from this memory (None: uncached)
    sources: dict = field(default_factory=dict, compare=False)

    def miss_cycles(self):
        """Cycles a data-cache miss adds: the line's accesses, each 1 + wait states, less
        the one cycle the load takes anyway."""
        accesses = -(-self.data_cache.line_bytes // self.width_bytes)
        return accesses * (self.wait_states + 1) - 1


FETCH_SOURCES = {
    "memory": "code executes in place from internal flash (the vendors' default linker "
              "scripts place .text there)",
    "bytes_per_instruction": "measured: the mean encoded size of what the reference firmware "
                             "executed (each mnemonic's mean size in CMSIS-NN 99f736a built "
                             "by arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -mthumb, weighted "
                             "by the mnemonics the TFLM + CMSIS-NN firmware executed on the "
                             "four MLPerf Tiny models, ../shared/models/*/measured.json): "
                             "3.14 bytes for the DSP build (3.38 for plain C on a Cortex-M3); "
                             "python benchmarks/thumb_bytes_per_instruction.py --cmsis-nn PATH"}
THUMB_BYTES_PER_INSTRUCTION = 3.14


@dataclass(frozen=True)
class InstructionFetch:
    """How code is fetched: from which memory, prefetched or not, cached or not."""
    memory: str                       # the memory code runs from (a key of `memories`)
    prefetch: bool                    # sequential lines fetched ahead of execution
    cache: Cache = None               # instruction cache / accelerator lines (None: uncached)
    bytes_per_instruction: float = THUMB_BYTES_PER_INSTRUCTION
    sources: dict = field(default_factory=lambda: dict(FETCH_SOURCES), compare=False)


@dataclass(frozen=True)
class MemorySystem:
    """A board's memories, where the machine's regions and the stack live, and fetch."""
    memories: dict                    # name -> Memory
    fetch: InstructionFetch
    placement: dict                   # "flash" / "sram" (machine regions), "stack" -> memory
    sources: dict = field(default_factory=dict, compare=False)

    def memory_of(self, region):
        try:
            return self.memories[self.placement[region]]
        except KeyError:
            raise ValueError(f"memory system places {region!r} in "
                             f"{self.placement.get(region)!r}, which it does not have "
                             f"(memories: {', '.join(self.memories)})") from None

    def needs_trace(self):
        """True when pricing needs the load trace (a data cache in front of a traced region)."""
        return any(self.memory_of(r).data_cache is not None for r in machine.TRACED_REGIONS
                   if r in self.placement)

    def placed(self, **where):
        """The same system with regions moved (``placed(sram="dtcm", flash="sram")``)."""
        for region, name in where.items():
            if name not in self.memories:
                raise ValueError(f"no memory {name!r} to place {region!r} in "
                                 f"(choose from {', '.join(self.memories)})")
        return replace(self, placement={**self.placement, **where})

    def check(self):
        for mem in self.memories.values():
            if mem.wait_states < 0 or mem.width_bytes < 1:
                raise ValueError(f"memory {mem.name}: wait states and width must be positive")
            if mem.data_cache is not None:
                mem.data_cache.check()
        for region in ("flash", "sram", "stack"):
            self.memory_of(region)
        if self.fetch.memory not in self.memories:
            raise ValueError(f"code memory {self.fetch.memory!r} is not one of the memories")


# --- the LRU replay ------------------------------------------------------------------------

@jit
def _lru_misses(granules, granule_shift, sets, ways):
    """Misses of `granules` (16-byte units, in access order) in an LRU cache of `sets` x
    `ways` lines of 16 << `granule_shift` bytes.  tags[s, 0] is the most recently used."""
    tags = np.full((sets, ways), -1, np.int64)
    misses = 0
    last = -1
    for g in granules:
        line = g >> granule_shift
        if line == last:
            continue
        last = line
        row = tags[line & (sets - 1)]
        hit = ways - 1
        for w in range(ways):
            if row[w] == line:
                hit = w
                break
        else:
            misses += 1
        for w in range(hit, 0, -1):
            row[w] = row[w - 1]
        row[0] = line
    return misses


def cache_misses(granules, cache):
    """Misses of the traced `granules` in `cache` (a fresh, empty cache)."""
    cache.check()
    shift = (cache.line_bytes // GRANULE_BYTES).bit_length() - 1
    return int(_lru_misses(np.asarray(granules, np.int64), shift, cache.sets, cache.ways))


# --- pricing -------------------------------------------------------------------------------

def _stack_beats(counters, region_beats):
    """Beats no region counted: PUSH/POP, stack slots, literal loads (see module docstring)."""
    classes = counters.class_counts()
    singles = classes[CLASS_INDEX["ld1"]] + classes[CLASS_INDEX["st1"]]
    doubles = 2 * (classes[CLASS_INDEX["ldrd"]] + classes[CLASS_INDEX["strd"]])
    return int(singles + doubles + counters.multiple_beats - sum(region_beats.values()))


def _fetch_cycles(counters, system):
    fetch = system.fetch
    ws = system.memories[fetch.memory].wait_states
    if ws == 0 or fetch.cache is not None:
        return 0
    instructions = int(counters.mnemonics.sum())
    line = system.memories[fetch.memory].width_bytes
    per_line = line / fetch.bytes_per_instruction
    lines = instructions / per_line
    stall = max(0.0, ws + 1 - per_line) if fetch.prefetch else ws
    return int(round(lines * stall)) + ws * counters.taken


def memory_terms(counters, system, trace=None):
    """The memory terms (module docstring) of `counters` (`cores.Counters`) on `system`;
    `trace` is the machine's `load_trace` (needed when `system.needs_trace()`)."""
    system.check()
    data = 0
    for region, beats in counters.region_beats.items():
        mem = system.memory_of(region)
        if mem.data_cache is not None and region in machine.TRACED_REGIONS:
            if trace is None:
                raise ValueError(f"{mem.data_cache.name} needs the load trace: run under "
                                 f"machine.recording_loads()")
            granules, dropped = trace
            if dropped:
                raise ValueError(f"load trace overflow ({dropped:,} granules beyond "
                                 f"{machine.TRACE_CAPACITY:,}): cache misses unknown")
            data += cache_misses(granules, mem.data_cache) * mem.miss_cycles()
        else:
            data += beats * mem.wait_states
    stack = _stack_beats(counters, counters.region_beats) * system.memory_of("stack").wait_states
    return {"data_memory": data, "stack_memory": stack,
            "instruction_fetch": _fetch_cycles(counters, system)}


def cited_fields(obj):
    """(field name, value, source) of every figure of a memory-system dataclass, nested."""
    out = []
    for f in fields(obj):
        value = getattr(obj, f.name)
        if f.name in ("sources", "name"):
            continue
        if isinstance(value, (Cache, Memory, InstructionFetch, MemorySystem)):
            out += cited_fields(value)
        elif isinstance(value, dict) and f.name == "memories":
            for mem in value.values():
                out += cited_fields(mem)
        elif value is not None:
            label = getattr(obj, "name", None) or type(obj).__name__
            out.append((f"{label}.{f.name}", value, obj.sources.get(f.name)))
    return out


__all__ = ["Cache", "Memory", "InstructionFetch", "MemorySystem", "FETCH_SOURCES", "memory_terms",
           "cache_misses", "cited_fields"]
