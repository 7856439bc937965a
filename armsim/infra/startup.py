"""Start-up cost: importing numba and armsim's commands leaves ~76,000 objects that Python's
cyclic collector tracks, and it traverses them again and again while they load and during
the run; none of them is garbage.  The `armsim` command pauses the collector while it
imports and then freezes what it imported (`gc.freeze`: never traversed again), ~30-50 ms
of a warm `armsim profile` (`python benchmarks/bench_coldstart.py` prints the warm start)."""
import contextlib
import gc


@contextlib.contextmanager
def collector_paused(freeze=False):
    """Pause the cyclic garbage collector inside the block; with `freeze`, move every object
    tracked so far to the permanent generation before resuming (for a process, not a
    library: nothing alive at that point is ever collected)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_enabled:
            gc.enable()
