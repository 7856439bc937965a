"""The per-op timeline of a profiled run in the Chrome trace-event format (`--trace-json`),
so Perfetto (ui.perfetto.dev) and chrome://tracing show a model run as a profile, next to
the board profiles users already take that way.

Format: Trace Event Format (Google, "Trace Event Format" document, the JSON Object Format):
an object whose `traceEvents` list holds complete events (`"ph": "X"`) with `ts` and `dur`
in microseconds, plus metadata events (`"ph": "M"`, `process_name` / `thread_name`) naming
each process and thread.  Time is the simulated cycles at the run's clock: an op starts at
the sum of the cycles of the ops before it, divided by the clock in MHz, and lasts its own
cycles / MHz.  Each profile (one per path in `compare`) is its own process, its ops one
thread in execution order; an op's args carry its kernel path, MACs, instructions and
cycles.  Ops computed on the host (not simulated) have no cycles: zero-length events.
"""


def trace(profiles):
    """The trace-event object for `profiles`: a `profiler.ModelProfile` or a list of them."""
    if not isinstance(profiles, (list, tuple)):
        profiles = [profiles]
    events = []
    for pid, prof in enumerate(profiles, start=1):
        title = (f"{prof.model}: {prof.build.path} on {prof.build.core} ({prof.build.toolchain}, "
                 f"{prof.clock_mhz:g} MHz)")
        events.append({"ph": "M", "pid": pid, "tid": 1, "name": "process_name",
                       "args": {"name": title}})
        events.append({"ph": "M", "pid": pid, "tid": 1, "name": "process_sort_index",
                       "args": {"sort_index": pid}})
        events.append({"ph": "M", "pid": pid, "tid": 1, "name": "thread_name",
                       "args": {"name": "ops"}})
        start = 0
        for o in prof.ops:
            events.append({
                "ph": "X", "pid": pid, "tid": 1, "name": f"{o.index} {o.op}",
                "cat": ("not simulated" if not o.simulated
                        else "reference" if o.reference else "cmsis-nn"),
                "ts": start / prof.clock_mhz, "dur": o.cycles / prof.clock_mhz,
                "args": {"index": o.index, "op": o.op, "kernel": o.kernel, "macs": o.macs,
                         "instructions": o.instructions, "cycles": o.cycles,
                         "start_cycle": start, "output_shape": list(o.output_shape),
                         "simulated": o.simulated}})
            start += o.cycles
    first = profiles[0]
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"model": first.model, "core": first.build.core,
                          "toolchain": first.build.toolchain, "clock_mhz": first.clock_mhz,
                          "time": "simulated cycles / clock_mhz, in microseconds",
                          "paths": [p.build.path for p in profiles],
                          "total_cycles": {p.build.path: p.cycles for p in profiles}}}
