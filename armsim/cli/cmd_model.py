"""Whole-model commands: `armsim profile`, `compare`, `run`, `arena`.

MODEL is a .tflite file or a name: NAME/model.tflite in the models directory
`$ARMSIM_MODELS`, else an example armsim builds itself (`armsim.data.modelgen.EXAMPLES`), as
`armsim.api.load_model` resolves it; without MODEL, the small example model.  Every
problem is one line naming the file and the op or tensor, with a non-zero exit; outputs
are written atomically (nothing is left behind on failure).  The --json schema is
documented in docs/json_schema.md.
"""

import click
import numpy as np

from armsim.analysis import timeline
from armsim.infra import output
from armsim.cli.common import (INPUT_HELP, MODEL_HELP, arena as plan_arena, build,
                               build_options, check_outputs, console, cycles_label, fail,
                               inputs, load_model, path_option, profile as run_profile,
                               toolchain_option, write_json)
from armsim.cpu import cores, machine
from armsim.pipeline.build import PATHS

TRACE_HELP = ("write the per-op timeline in the Chrome trace-event format (cycles as time at "
              "the clock), for Perfetto or chrome://tracing")


def _write_html(path, report):
    from armsim.analysis import report as report_mod
    output.write_text(path, report_mod.render_html(report))


def _fmt(n):
    return f"{n:,}"


def _kernel_label(o):
    """The kernel that did the work: the function the entry point dispatched to."""
    from rich.markup import escape
    parts = [p for p in o.kernel.split(" > ")
             if "Eval" not in p and "GetTensorShape" not in p and p != "memcpy"] or ["memcpy"]
    main = parts[1] if len(parts) > 1 and parts[0].endswith("_wrapper_s8") else parts[0]
    tag = "not simulated" if not o.simulated else ("ref" if o.reference else "cmsis")
    return escape(f"{tag}: {main}")


@click.command("profile", epilog=MODEL_HELP)
@click.argument("model", required=False)
@build_options
@path_option(help="simd: CMSIS-NN with DSP; scalar: CMSIS-NN plain C; reference: TFLM kernels")
@click.option("--input", "input_file", multiple=True, type=click.Path(dir_okay=False),
              help=INPUT_HELP)
@click.option("--json", "json_file", type=click.Path(), help="write the profile as JSON")
@click.option("--html", "html_file", type=click.Path(), help="write an HTML report")
@click.option("--trace-json", "trace_file", type=click.Path(), help=TRACE_HELP)
@click.option("--stages", is_flag=True,
              help="also show each op's cycles split by stage (MAC, unpacking, im2col, "
                   "requantize, bookkeeping, calibrated stack traffic, TFLM glue, ...)")
def profile(model, core, toolchain, clock_mhz, flash_wait_states, path, input_file, json_file,
            html_file, board, trace_file, stages):
    """Per-op kernel path, MACs, instructions and cycles of MODEL (default: example model)."""
    b = build(path, toolchain, core)
    check_outputs(json_file, html_file, trace_file)
    m, steps = load_model(model)
    prof = run_profile(m, steps, b, clock_mhz, flash_wait_states, inputs(m, input_file),
                       board=board)
    plan = plan_arena(m, steps, b)
    _print_profile(m, prof, plan)
    if stages:
        _print_stages(m, prof)
    data = prof.to_json(plan.total)
    if json_file:
        write_json(json_file, data)
    if html_file:
        _write_html(html_file, _report(m, steps, {path: b}, clock_mhz, {path: data}, plan))
    if trace_file:
        write_json(trace_file, timeline.trace(prof))


def _report(m, steps, builds, clock_mhz, profiles, plan):
    """The HTML report's data: each path's profile JSON, built by `builds` (path -> Build)."""
    first = next(iter(builds.values()))
    return {"model": m.name, "core": first.core, "toolchain": first.toolchain,
            "clock_mhz": clock_mhz, "profiles": profiles, "arena": plan.to_json(),
            "why": _why(m, steps, builds, profiles)}


def _why(m, steps, builds, profiles):
    """Op index (a string, as JSON keys are) -> why the first CMSIS-NN path's kernel ran
    (armsim.analysis.insight.dispatch); {} for a reference-only report."""
    from armsim.analysis import insight
    path = next((p for p, b in builds.items() if b.cmsis_nn), None)
    if path is None:
        return {}
    return {str(s.index): insight.dispatch(m, s, o["kernel"], builds[path]).reason
            for s, o in zip(steps, profiles[path]["ops"])}


def _span(cycles, low, high):
    """An op's cycles at the ends of the assumed figures' ranges, relative to `cycles`;
    blank where they do not move it."""
    if low == high == cycles or not cycles:
        return ""
    return f"{100 * (low / cycles - 1):+.1f}% {100 * (high / cycles - 1):+.1f}%"


def _print_profile(m, prof, plan):
    from rich.table import Table
    total = prof.cycles or 1
    waits = "" if prof.board else f", {prof.flash_wait_states} flash wait states"
    b = prof.build
    spans = prof.cycles_min != prof.cycles_max or any(
        o.cycles_min != o.cycles_max for o in prof.ops)
    caption = cycles_label([b], prof.board)
    if spans:
        caption += ("; range: the cycles with the board's assumed figures at the ends of "
                    "their ranges (`armsim boards NAME`), per op, and for the whole model on "
                    "one board")
    t = Table(title=f"{m.name} on {b.core} ({b.path}, {b.toolchain}, "
                    f"{prof.clock_mhz:g} MHz{waits})", caption=caption)
    columns = [("#", "right"), ("op", "left"), ("types", "left"), ("kernel path", "left"),
               ("output", "left"), ("MACs", "right"), ("instructions", "right"),
               ("cycles", "right")] + ([("range", "right")] if spans else []) + \
        [("cycles/MAC", "right"), ("%", "right")]
    for col, just in columns:
        t.add_column(col, justify=just)
    for o in prof.ops:
        cpm = f"{o.cycles / o.macs:.2f}" if o.macs else "-"
        span = [_span(o.cycles, o.cycles_min, o.cycles_max)] if spans else []
        t.add_row(str(o.index), o.op, o.types, _kernel_label(o), "x".join(map(str, o.output_shape)),
                  _fmt(o.macs), _fmt(o.instructions), _fmt(o.cycles), *span, cpm,
                  f"{100 * o.cycles / total:.1f}")
    cpm = f"{prof.cycles / prof.macs:.2f}" if prof.macs else "-"
    span = [_span(prof.cycles, prof.cycles_min, prof.cycles_max)] if spans else []
    t.add_section()
    t.add_row("", "total", "", "", "", _fmt(prof.macs), _fmt(prof.instructions), _fmt(prof.cycles),
              *span, cpm, "100.0")
    con = console()
    con.print(t)
    latency = f"latency {prof.latency_ms():.3f} ms at {prof.clock_mhz:g} MHz"
    if spans:
        low, high = (cores.latency_ms(c, prof.clock_mhz) for c in (prof.cycles_min,
                                                                      prof.cycles_max))
        latency += f" ({low:.3f}-{high:.3f} ms over the assumed figures' ranges)"
    con.print(f"{latency}; arena {_fmt(plan.total)} bytes (head {_fmt(plan.head)} + tail "
              f"{_fmt(plan.tail)})")
    if prof.not_simulated:
        con.print(f"not simulated: {prof.not_simulated} of {len(prof.ops)} ops, computed on "
                  f"the host (float QUANTIZE/DEQUANTIZE: no FPU model; other ops: by TFLM, no "
                  f"kernel port); their instructions, cycles and MACs are not in the totals")


def _print_stages(m, prof):
    """Per op, the share of its cycles in each stage (`armsim.cpu.cores.stage_breakdown`);
    the rows sum to the op's cycles exactly."""
    from rich.table import Table
    used = [s for s in (*machine.STAGES, cores.NOT_SPLIT)
            if any(s in o.stages for o in prof.ops)]
    t = Table(title=f"{m.name}: cycles by stage, % of each op's cycles ({prof.build.path}, "
                    f"{prof.build.core})",
              caption="; ".join(f"{s}: {machine.STAGES.get(s, 'memory system, dual issue')}"
                                for s in used))
    t.add_column("#", justify="right")
    t.add_column("op")
    t.add_column("cycles", justify="right")
    for s in used:
        t.add_column(s, justify="right")
    for o in prof.ops:
        if not o.simulated:
            t.add_row(str(o.index), o.op, "-", *["" for _ in used])
            continue
        t.add_row(str(o.index), o.op, _fmt(o.cycles), *[
            f"{100 * o.stages[s]['cycles'] / o.cycles:.1f}" if s in o.stages and o.cycles
            else "" for s in used])
    t.add_section()
    total = prof.cycles or 1
    t.add_row("", "total", _fmt(prof.cycles), *[
        f"{100 * sum(o.stages.get(s, {}).get('cycles', 0) for o in prof.ops) / total:.1f}"
        for s in used])
    console().print(t)


@click.command("compare", epilog=MODEL_HELP)
@click.argument("model", required=False)
@build_options
@click.option("--input", "input_file", multiple=True, type=click.Path(dir_okay=False),
              help=INPUT_HELP)
@click.option("--json", "json_file", type=click.Path(),
              help="write {path: profile} as JSON")
@click.option("--html", "html_file", type=click.Path(), help="write an HTML report")
@click.option("--trace-json", "trace_file", type=click.Path(),
              help=TRACE_HELP + " (one process per path)")
def compare(model, core, toolchain, clock_mhz, flash_wait_states, input_file, json_file,
            html_file, board, trace_file):
    """SIMD vs scalar vs reference, per op and in total, with speed-ups."""
    builds = {p: build(p, toolchain, core) for p in PATHS}
    check_outputs(json_file, html_file, trace_file)
    m, steps = load_model(model)
    xs = inputs(m, input_file)
    profs = {p: run_profile(m, steps, b, clock_mhz, flash_wait_states, xs, board=board)
             for p, b in builds.items()}
    from rich.table import Table
    t = Table(title=f"{m.name} on {core}: cycles per path ({toolchain}, {clock_mhz:g} MHz)",
              caption=cycles_label(builds.values(), board))
    for col in ("#", "op", "simd", "scalar", "reference", "simd vs scalar", "simd vs ref"):
        t.add_column(col, justify="left" if col == "op" else "right")

    def ratio(a, b):
        return f"{b / a:.2f}x" if a else "-"
    for k, o in enumerate(profs["simd"].ops):
        s, c, r = (profs[p].ops[k].cycles for p in PATHS)
        label = o.op + (" (ref)" if o.reference else "")
        t.add_row(str(o.index), label, _fmt(s), _fmt(c), _fmt(r), ratio(s, c), ratio(s, r))
    s, c, r = (profs[p].cycles for p in PATHS)
    t.add_section()
    t.add_row("", "total", _fmt(s), _fmt(c), _fmt(r), ratio(s, c), ratio(s, r))
    con = console()
    con.print(t)
    for p in PATHS:
        con.print(f"{p:9s} {_fmt(profs[p].instructions)} instructions, "
                  f"{profs[p].latency_ms():.3f} ms")
    same = all(np.array_equal(a, b) for a, b in zip(profs["simd"].outputs,
                                                     profs["reference"].outputs)) and \
        all(np.array_equal(a, b) for a, b in zip(profs["scalar"].outputs,
                                                  profs["reference"].outputs))
    con.print("outputs: identical on all three paths" if same else
              "[red]outputs differ between paths[/]")
    from armsim.analysis import insight
    gains = [insight.simd_gain(a, b) for a, b in zip(profs["simd"].ops, profs["scalar"].ops)]
    low = [g for g in gains if g is not None and g.reason]
    if low:
        con.print(f"why simd gains less than {insight.LOW_GAIN}x over scalar on these ops:")
        for g in low:
            con.print(f"  #{g.index} {g.op}: {g.reason}", markup=False)
    plans = {p: plan_arena(m, steps, b) for p, b in builds.items()}
    data = {p: profs[p].to_json(plans[p].total) for p in PATHS}
    for op, g in zip(data["simd"]["ops"], gains):
        op["simd_gain"] = g.to_json() if g is not None else None
    if json_file:
        write_json(json_file, data)
    if html_file:
        _write_html(html_file, _report(m, steps, builds, clock_mhz, data, plans["simd"]))
    if trace_file:
        write_json(trace_file, timeline.trace([profs[p] for p in PATHS]))
    if not same:
        raise SystemExit(1)


@click.command("run", epilog=MODEL_HELP)
@click.argument("model")
@click.option("--input", "input_file", required=True, multiple=True,
              type=click.Path(dir_okay=False), help=INPUT_HELP)
@click.option("--output", "output_file", required=True, multiple=True,
              type=click.Path(),
              help="one .npz holding every graph output keyed by name, or one .npy per graph "
                   "output, in order (repeat --output)")
@path_option()
@toolchain_option
def run(model, input_file, output_file, path, toolchain):
    """Run MODEL on --input and write its outputs to --output (.npz, or .npy each)."""
    b = build(path, toolchain)
    check_outputs(*output_file)
    m, steps = load_model(model)
    names = [t.name for t in m.output_tensors()]
    npz = len(output_file) == 1 and output_file[0].endswith(".npz")
    if not npz and len(output_file) != len(names):
        fail(f"{', '.join(output_file)}: model has {len(names)} outputs ({', '.join(names)}): "
             f"give one .npz or {len(names)} --output .npy files")
    prof = run_profile(m, steps, b, 100.0, 0, inputs(m, input_file))
    if npz:
        arrays = dict(zip(names, prof.outputs))
        output.write(output_file[0], lambda f: np.savez(f, **arrays))
        written = [(output_file[0], a) for a in prof.outputs]
    else:
        for target, out in zip(output_file, prof.outputs):
            output.write(target, lambda f, out=out: np.save(f, out, allow_pickle=False))
        written = list(zip(output_file, prof.outputs))
    con = console()
    for target, out in written:
        con.print(f"{target}: {out.dtype} {list(out.shape)} ({path}, "
                  f"{_fmt(prof.instructions)} instructions)")


@click.command("arena", epilog=MODEL_HELP)
@click.argument("model", required=False)
@path_option()
@toolchain_option
@click.option("--json", "json_file", type=click.Path(), help="write the plan as JSON")
def arena(model, path, toolchain, json_file):
    """The arena plan: each buffer's offset and lifetime, head + tail = arena_used_bytes."""
    b = build(path, toolchain)
    check_outputs(json_file)
    m, steps = load_model(model)
    plan = plan_arena(m, steps, b)
    from rich.table import Table
    t = Table(title=f"{m.name} arena ({path}): head {_fmt(plan.head)} + tail "
                    f"{_fmt(plan.tail)} = {_fmt(plan.total)} bytes")
    for col in ("buffer", "kind", "bytes", "offset", "first op", "last op"):
        t.add_column(col, justify="left" if col in ("buffer", "kind") else "right")
    from rich.markup import escape
    for b in sorted(plan.buffers, key=lambda b: (b.offset, b.first)):
        name = b.name if len(b.name) <= 48 else b.name[:22] + "..." + b.name[-23:]
        label = f"t{b.tensor} {name}" if b.kind == "tensor" else name
        t.add_row(escape(label), b.kind, _fmt(b.size), _fmt(b.offset), str(b.first),
                  str(b.last))
    con = console()
    con.print(t)
    con.print("tail: " + ", ".join(f"{k} {_fmt(v)}" for k, v in plan.tail_parts.items()))
    if json_file:
        write_json(json_file, plan.to_json())


COMMANDS = [profile, compare, run, arena]
