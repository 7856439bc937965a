"""Memory-system models as data: what a board's memories add to a core's cycles.

`armsim.cpu.cores` prices the instructions a run executed as if every memory answered in zero
wait states.  A `MemorySystem` adds what a real board's memories cost on top, from the same
counted run: per machine region (``flash`` = constant data such as weights, ``sram`` = the
arena) and the stack, the memory it is placed in (`MemorySystem.placement`), and instruction
fetch from the memory code runs from.  Every figure is a field of a frozen dataclass whose
`sources` name the document it comes from (`armsim.data.boards` builds the presets); a figure no
document gave carries a `Range` of the values it could plausibly take (`ranges`).

Terms (added to `cores.breakdown` when a memory system is given; all integers):

* ``data_memory``  loads and stores of the machine's regions.  Without a data cache: each
  beat (word) pays the memory's wait states.  Behind a data cache (a flash accelerator's data
  lines, the RA6M4's C-cache and S-cache, a Cortex-M7 L1 D-cache): the counted run's load
  trace (`machine.load_trace`: 16-byte granules of the loads from the traced regions) is
  replayed through the cache (LRU, `Cache`; the regions behind one cache share it); each miss
  pays `Memory.miss_cycles` (the line filled from the memory over its bus, one access per
  `width_bytes`), hits pay nothing.  Stores are written through without allocating a line
  (each store beat pays the memory's wait states and leaves the cache as it was): the
  RA6M4's caches have no write-back (their flush registers only invalidate, CCAFCT / SCAFCT
  in the device's SVD; FSP's `R_BSP_FlashCacheDisable` writes back only on C-cache version
  2, the RA6M4 has version 1), and a write-through cache that allocates on writes is not
  among the presets.
* ``stack_memory`` the stack's beats (PUSH/POP, spills and stacked arguments: the loads and
  stores no region counted, including the few literal-pool loads) at the wait states of the
  memory the stack is placed in.  Behind a data cache (the RA6M4's S-cache) the stack's
  loads hit: a kernel's frames are a few hundred bytes reused every iteration (its
  compulsory misses and the rare eviction by arena lines are not counted); its stores are
  written through.
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

Assumed figures (`MemorySystem.assumptions`): `corner_costs` prices the same counters and
load trace at every corner of the assumed figures' ranges -- every combination of each
figure at its low or high end -- plus the preset itself, so a caller takes the minimum and
maximum over them.  Enumerating all corners makes that the true minimum and maximum over the
corners whatever the figures' interplay (no independence assumed); when the cycles are
monotone in each figure (wait states, widths, and the LRU replay in the number of ways at a
fixed number of sets are; the replay's misses against the number of sets need not be), it is
the minimum and maximum over the whole box of plausible values.  The trace is replayed once
per distinct cache geometry, not per corner, and no kernel runs again.

Not modelled: bus contention between fetch and data (Harvard code/system buses are assumed
to overlap), write buffers (stores are priced like loads), critical-word-first line fills,
the code's share of a unified cache, DMA.
"""
import itertools
from dataclasses import dataclass, field, replace

import numpy as np

from . import machine
from .instructions import CLASS_INDEX
from .jit import jit

GRANULE_BYTES = 1 << machine.GRANULE_SHIFT
MAX_ASSUMED = 10        # 2**10 corners: beyond, the enumeration would cost more than the run


@dataclass(frozen=True)
class Range:
    """The plausible values of an assumed figure: its two ends (`low` <= preset <= `high` in
    the figure's order; booleans: False, True) and `basis`, the cited reason for them."""
    low: object
    high: object
    basis: str

    def describe(self):
        return f"{self.low}-{self.high}" if self.low != self.high else f"{self.low}"


@dataclass(frozen=True)
class Cache:
    """A set-associative LRU cache (``ways == lines`` is fully associative).  `key` names it
    on the command line (``--no-cache KEY``)."""
    name: str
    size_bytes: int
    line_bytes: int
    ways: int
    sources: dict = field(default_factory=dict, compare=False)
    key: str = ""
    ranges: dict = field(default_factory=dict, compare=False)

    @property
    def switch(self):
        return self.key or self.name.lower().replace(" ", "-")

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
    ranges: dict = field(default_factory=dict, compare=False)

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
    ranges: dict = field(default_factory=dict, compare=False)


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

    def traced_regions(self):
        """The machine regions whose loads pricing replays (a data cache in front of them):
        what the counted run must trace (`machine.recording_loads`)."""
        return tuple(r for r in machine.TRACEABLE_REGIONS
                     if r in self.placement and self.memory_of(r).data_cache is not None)

    def needs_trace(self):
        return bool(self.traced_regions())

    def caches(self):
        """The distinct caches (by `Cache.switch`): instruction fetch's first, then the
        memories' data caches."""
        out = {}
        for c in [self.fetch.cache] + [m.data_cache for m in self.memories.values()]:
            if c is not None:
                out.setdefault(c.switch, c)
        return list(out.values())

    def placed(self, **where):
        """The same system with regions moved (``placed(sram="dtcm", flash="sram")``)."""
        for region, name in where.items():
            if name not in self.memories:
                raise ValueError(f"no memory {name!r} to place {region!r} in "
                                 f"(choose from {', '.join(self.memories)})")
        return replace(self, placement={**self.placement, **where})

    def without_caches(self, switches=None):
        """The same system without the caches named in `switches` (`Cache.switch`), or
        without any when `switches` is None; ValueError for a name it has no cache of."""
        names = [c.switch for c in self.caches()]
        unknown = [s for s in (switches or ()) if s not in names]
        if unknown:
            raise ValueError(f"no cache {unknown[0]!r} (caches: {', '.join(names) or 'none'})")

        def kept(c):
            return c if c is not None and switches is not None and c.switch not in switches \
                else None
        return replace(self, memories={k: replace(m, data_cache=kept(m.data_cache))
                                       for k, m in self.memories.items()},
                       fetch=replace(self.fetch, cache=kept(self.fetch.cache)))

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

    # --- assumed figures --------------------------------------------------------------

    def assumptions(self):
        """[(label, where, Range)] of every assumed figure whose range is not a single value,
        each once: `where` is ("memory", name, field), ("cache", switch, field) or
        ("fetch", field)."""
        out = []
        for name, mem in self.memories.items():
            out += [(f"{name}.{f}", ("memory", name, f), r) for f, r in mem.ranges.items()]
        for c in self.caches():
            out += [(f"{c.name}.{f}", ("cache", c.switch, f), r) for f, r in c.ranges.items()]
        out += [(f"fetch.{f}", ("fetch", f), r) for f, r in self.fetch.ranges.items()]
        return [a for a in out if a[2].low != a[2].high]

    def varied(self, values):
        """The same system with assumed figures set: `values` maps an `assumptions()` `where`
        to a value.  A cache's ways beyond its lines mean fully associative."""
        def cache(c):
            if c is None:
                return None
            new = {w[2]: v for w, v in values.items() if w[:2] == ("cache", c.switch)}
            if not new:
                return c
            c = replace(c, **new)
            return replace(c, ways=min(c.ways, c.lines))
        memories = {}
        for name, mem in self.memories.items():
            new = {w[2]: v for w, v in values.items() if w[:2] == ("memory", name)}
            memories[name] = replace(mem, data_cache=cache(mem.data_cache), **new)
        new = {w[1]: v for w, v in values.items() if w[0] == "fetch"}
        fetch = replace(self.fetch, cache=cache(self.fetch.cache), **new)
        return replace(self, memories=memories, fetch=fetch)

    def prices(self, where):
        """Whether the figure at `where` (as in `assumptions`) enters any term here: a cache's
        geometry only as a placed region's data cache (fetch through a cache always hits), a
        memory's figures only where a region, the stack or uncached fetch uses it, prefetch
        only without an instruction cache."""
        used = {self.placement[r] for r in ("flash", "sram", "stack") if r in self.placement}
        cached = {self.memory_of(r).data_cache.switch for r in machine.TRACEABLE_REGIONS
                  if r in self.placement and self.memory_of(r).data_cache is not None}
        fetch_uncached = self.fetch.cache is None
        if where[0] == "cache":
            return where[1] in cached
        if where[0] == "fetch":
            return where[1] != "prefetch" or fetch_uncached
        name, figure = where[1], where[2]
        fetched = name == self.fetch.memory and fetch_uncached
        if figure == "width_bytes":
            return fetched or (name in used and self.memories[name].data_cache is not None)
        return fetched or name in used

    def corners(self):
        """This system, then one per corner of the ranges of the assumed figures it prices
        (`prices`): every figure at its low or high end, all combinations.  What
        `corner_costs` prices."""
        assumed = [(w, r) for _, w, r in self.assumptions() if self.prices(w)]
        if len(assumed) > MAX_ASSUMED:
            raise ValueError(f"{len(assumed)} assumed figures: at most {MAX_ASSUMED} "
                             f"(2**{MAX_ASSUMED} corners)")
        if not assumed:
            return [self]
        wheres = [w for w, _ in assumed]
        return [self] + [self.varied(dict(zip(wheres, ends))) for ends in
                         itertools.product(*[(r.low, r.high) for _, r in assumed])]


# --- the LRU replay ------------------------------------------------------------------------

@jit
def _split(granules, spans):
    """The granules that fall in one of `spans` ([region, (first, end)] granules), in
    order, and the index of the region each belongs to: one cache's share of the trace."""
    kept = np.empty(granules.shape[0], np.int64)
    owners = np.empty(granules.shape[0], np.int64)
    n = 0
    for i in range(granules.shape[0]):
        g = granules[i]
        for k in range(spans.shape[0]):
            if spans[k, 0] <= g < spans[k, 1]:
                kept[n] = g
                owners[n] = k
                n += 1
                break
    return kept[:n], owners[:n]


@jit
def _lru_misses(granules, owners, n_owners, granule_shift, sets, ways):
    """Misses per owner (`owners[i]`: the region granule i belongs to) of `granules` (16-byte
    units, in access order) in LRU caches of `sets` sets of 1 to `ways` lines of
    16 << `granule_shift` bytes: [owner, w - 1] for w ways, all from one pass.  An LRU set
    of w ways holds the w most recently used of its lines (the inclusion property), so an
    access at depth d of the `ways`-deep recency stack hits with more than d ways and misses
    with d or fewer.  tags[s, 0] is the most recently used."""
    tags = np.full((sets, ways), -1, np.int64)
    depth_misses = np.zeros((n_owners, ways + 1), np.int64)
    last = -1
    for i in range(granules.shape[0]):
        line = granules[i] >> granule_shift
        if line == last:
            continue
        last = line
        row = tags[line & (sets - 1)]
        depth = ways
        for w in range(ways):
            if row[w] == line:
                depth = w
                break
        depth_misses[owners[i], depth] += 1
        for w in range(min(depth, ways - 1), 0, -1):
            row[w] = row[w - 1]
        row[0] = line
    # misses with w ways: the accesses at depth >= w
    misses = np.zeros((n_owners, ways), np.int64)
    for k in range(n_owners):
        tail = depth_misses[k, ways]
        for w in range(ways, 0, -1):
            misses[k, w - 1] = tail
            tail += depth_misses[k, w - 1]
    return misses


def _shift(cache):
    return (cache.line_bytes // GRANULE_BYTES).bit_length() - 1


def cache_misses(granules, cache):
    """Misses of the traced `granules` in `cache` (a fresh, empty cache)."""
    cache.check()
    granules = np.asarray(granules, np.int64)
    return int(_lru_misses(granules, np.zeros(len(granules), np.int64), 1, _shift(cache),
                           cache.sets, cache.ways)[0, cache.ways - 1])


def _replay(trace, cache, regions, memo):
    """Misses per region of `regions` (the traced regions behind `cache`) of the load trace,
    replayed through `cache`.  `memo` keeps, across the corners of one op, each region
    subset's share of the trace, each (line, sets) replay, done once for the most ways any
    corner asks of it (`memo["ways"]`, planned by `CornerPricing`), and each geometry's
    answer."""
    answer = (cache.line_bytes, cache.size_bytes, cache.ways, regions)
    if answer in memo:
        return memo[answer]
    if trace is None:
        raise ValueError(f"{cache.name} needs the load trace: run under "
                         f"machine.recording_loads()")
    if trace.dropped:
        raise ValueError(f"load trace overflow ({trace.dropped:,} granules beyond "
                         f"{machine.TRACE_CAPACITY:,}): cache misses unknown")
    untraced = [r for r in regions if r not in trace.spans]
    if untraced:
        raise ValueError(f"{cache.name} needs the loads from {untraced[0]!r} traced "
                         f"(machine.recording_loads({tuple(regions)}))")
    cache.check()
    key = (cache.line_bytes, cache.sets, regions)
    done = memo.get(key)
    if done is None or done.shape[1] < cache.ways:
        if regions not in memo:
            memo[regions] = _split(trace.granules,
                                   np.array([trace.spans[r] for r in regions], np.int64))
        granules, owners = memo[regions]
        ways = max(cache.ways, memo.get("ways", {}).get(key, 0))
        done = memo[key] = _lru_misses(granules, owners, len(regions), _shift(cache),
                                       cache.sets, ways)
    memo[answer] = {r: int(done[k, cache.ways - 1]) for k, r in enumerate(regions)}
    return memo[answer]


# --- pricing -------------------------------------------------------------------------------

def _stack_beats(counters):
    """(loads, stores) of the beats no region counted: PUSH/POP, stack slots, literal loads
    (see module docstring); the loads are the machine's STACK_LOADS count."""
    classes = counters.class_counts()
    singles = classes[CLASS_INDEX["ld1"]] + classes[CLASS_INDEX["st1"]]
    doubles = 2 * (classes[CLASS_INDEX["ldrd"]] + classes[CLASS_INDEX["strd"]])
    total = int(singles + doubles + counters.multiple_beats - sum(counters.region_beats.values()))
    return counters.stack_loads, total - counters.stack_loads


def _fetch_cycles(counters, fetch, ws, line):
    if ws == 0 or fetch.cache is not None:
        return 0
    instructions = int(counters.mnemonics.sum())
    per_line = line / fetch.bytes_per_instruction
    lines = instructions / per_line
    stall = max(0.0, ws + 1 - per_line) if fetch.prefetch else ws
    return int(round(lines * stall)) + ws * counters.taken


def _behind(system):
    """{cache switch: (cache, traced regions behind it, in `TRACEABLE_REGIONS` order)}."""
    out = {}
    for r in system.traced_regions():
        c = system.memory_of(r).data_cache
        out.setdefault(c.switch, (c, []))[1].append(r)
    return {k: (c, tuple(rs)) for k, (c, rs) in out.items()}


@dataclass(frozen=True)
class _Static:
    """What pricing a system needs that no run changes, worked out once per system."""
    wait_states: dict             # placed region / "stack" -> its memory's wait states
    traced: tuple                 # regions replayed through a data cache
    behind: tuple                 # (cache, regions, {region: miss cycles}) per data cache
    stack_cached: bool            # the stack's memory has a data cache: its loads hit
    fetch: InstructionFetch
    fetch_ws: int
    fetch_line: int

    @classmethod
    def of(cls, system):
        system.check()
        code = system.memories[system.fetch.memory]
        return cls({r: system.memory_of(r).wait_states for r in system.placement},
                   system.traced_regions(),
                   tuple((c, regions, {r: system.memory_of(r).miss_cycles() for r in regions})
                         for c, regions in _behind(system).values()),
                   system.memory_of("stack").data_cache is not None, system.fetch,
                   code.wait_states, code.width_bytes)


def _terms(counters, static, trace, memo):
    data = 0
    for region, beats in counters.region_beats.items():
        if region in static.traced:               # stores written through, loads replayed
            data += counters.region_stores.get(region, 0) * static.wait_states[region]
        else:
            data += beats * static.wait_states[region]
    for cache, regions, miss_cycles in static.behind:
        regions = tuple(r for r in regions if r in counters.region_beats)
        if regions:
            misses = _replay(trace, cache, regions, memo)
            data += sum(misses[r] * miss_cycles[r] for r in regions)
    if "stack" not in memo:
        memo["stack"] = _stack_beats(counters)
    loads, stores = memo["stack"]
    stack = (stores if static.stack_cached else loads + stores) * static.wait_states["stack"]
    return {"data_memory": data, "stack_memory": stack,
            "instruction_fetch": _fetch_cycles(counters, static.fetch, static.fetch_ws,
                                               static.fetch_line)}


def memory_terms(counters, system, trace=None, memo=None):
    """The memory terms (module docstring) of `counters` (`cores.Counters`) on `system`;
    `trace` is the machine's `load_trace` with its regions' spans (needed when
    `system.needs_trace()`); `memo` (a dict) shares replays and the stack's beats between
    calls on the same counters and trace."""
    return _terms(counters, _Static.of(system), trace, {} if memo is None else memo)


class CornerPricing:
    """Prices one op's counters and load trace on each system of `corners`
    (`MemorySystem.corners()`: the preset, then every corner of its assumed figures): what
    does not depend on the op is worked out once, and each op's trace is replayed once per
    (line, sets) with the most ways any corner asks of it (`_lru_misses`)."""

    def __init__(self, corners):
        self.corners = list(corners)
        self._static = [_Static.of(s) for s in self.corners]
        self._ways = {}
        for static in self._static:
            for c, regions, _ in static.behind:
                key = (c.line_bytes, c.sets, regions)
                self._ways[key] = max(self._ways.get(key, 0), c.ways)

    def memo(self):
        """A fresh memo for one op (pass it to `memory_terms` for the preset as well)."""
        return {"ways": self._ways}

    def costs(self, counters, trace=None, memo=None):
        """The memory cycles (the terms' sum) on each corner system."""
        memo = self.memo() if memo is None else memo
        return np.array([sum(_terms(counters, st, trace, memo).values())
                         for st in self._static], np.int64)


def corner_costs(counters, corners, trace=None):
    """`CornerPricing(corners).costs(counters, trace)`."""
    return CornerPricing(corners).costs(counters, trace)


def figures(system):
    """(figure, value, source, Range or None) of every figure of `system`, each once: per
    memory its wait states, width and data cache; each distinct cache's geometry; fetch;
    placement."""
    out = []

    def add(label, obj, name, value=None):
        value = getattr(obj, name) if value is None else value
        out.append((label, value, obj.sources.get(name), obj.ranges.get(name)))
    for name, mem in system.memories.items():
        add(f"{name}.wait_states", mem, "wait_states")
        add(f"{name}.width_bytes", mem, "width_bytes")
        if mem.data_cache is not None:
            add(f"{name}.data_cache", mem, "data_cache", mem.data_cache.name)
    for c in system.caches():
        for f in ("size_bytes", "line_bytes", "ways"):
            add(f"{c.name}.{f}", c, f)
    fetch = system.fetch
    for f in ("memory", "prefetch", "bytes_per_instruction"):
        add(f"fetch.{f}", fetch, f)
    if fetch.cache is not None:
        add("fetch.cache", fetch, "cache", fetch.cache.name)
    out.append(("placement", dict(system.placement), system.sources.get("placement"), None))
    return out


__all__ = ["Cache", "Memory", "InstructionFetch", "MemorySystem", "Range", "FETCH_SOURCES",
           "memory_terms", "CornerPricing", "corner_costs", "cache_misses", "figures"]
