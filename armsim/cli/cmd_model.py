"""Whole-model commands: `armsim profile`, `compare`, `run`, `arena`.

MODEL is a .tflite file or a name: NAME/model.tflite in the models directory
`$ARMSIM_MODELS`, else an example armsim builds itself (`armsim.data.modelgen.EXAMPLES`), as
`armsim.api.load_model` resolves it; without MODEL, the small example model.  Every
problem is one line naming the file and the op or tensor, with a non-zero exit; outputs
are written atomically (nothing is left behind on failure).  The --json schema is
documented in docs/json_schema.md.
"""
import functools
import json
import os
import threading

import click
import numpy as np

from armsim import api
from armsim.pipeline import arena as arena_mod
from armsim.data import boards
from armsim.cpu import cores, machine
from armsim.pipeline import model as model_mod
from armsim.pipeline import prepare as prepare_mod
from armsim.pipeline import profiler as profile_mod
from armsim.analysis import timeline
from armsim.pipeline.build import Build
from armsim.pipeline import harness
from armsim.cli import output

CORES = tuple(cores.CORES)
PATHS = harness.PATHS
TRACE_HELP = ("write the per-op timeline in the Chrome trace-event format (cycles as time at "
              "the clock), for Perfetto or chrome://tracing")
INPUT_HELP = ("one .npy per graph input, in order (repeat --input), or one .npz keyed by "
              "input name (default: seeded random)")


def _model_help():
    """The MODEL paragraph of each command's --help, listing the bundled examples."""
    from armsim.data import modelgen
    examples = "\n".join(f"  {name:8s} {builder.__doc__.splitlines()[0].rstrip('.')}"
                         for name, builder in modelgen.EXAMPLES.items())
    return (f"MODEL is a .tflite file or a name: NAME/model.tflite in the models directory "
            f"${api.MODELS_ENV} if it is there, else one of the examples armsim builds itself "
            f"(seeded random weights, nothing downloaded; default: {api.DEFAULT_MODEL}):\n\n"
            f"\b\n{examples}")


MODEL_HELP = _model_help()


def _fail(message):
    raise click.ClickException(message)


def load_model(model_arg):
    """(Model, prepared steps) for MODEL (see `armsim.api.load_model`; None: the example)."""
    try:
        m = api.load_model(model_arg)
        steps = prepare_mod.prepare(m)
    except model_mod.ModelError as e:
        _fail(str(e))
    return m, steps


def _check_outputs(*paths):
    """Refuse unwritable output paths before the run, not after it."""
    for p in paths:
        if p:
            output.check(p)


def _write_json(path, obj):
    output.write_text(path, json.dumps(obj, indent=1) + "\n")


def _write_html(path, report):
    from armsim.analysis import report as report_mod
    output.write_text(path, report_mod.render_html(report))


def _inputs(m, input_files):
    if not input_files:
        return None
    try:
        return profile_mod.load_inputs(input_files, m)
    except profile_mod.ProfileError as e:
        _fail(str(e))


def _check_core(core):
    try:
        cores.core(core)
    except ValueError as e:
        _fail(str(e))


class _LateProgress:
    """rich's progress bar on stderr, shown only when stderr is a terminal and the run is
    still going after `DELAY` seconds (compiling, or a long model): a warm run of a small
    model is over before then, without importing rich.progress (~60 ms of a 0.5 s run).
    `tick` runs in the run's thread, the bar is started from a timer thread: one lock."""
    DELAY = 0.4

    def __init__(self, label, total):
        self.label, self.total, self.done = label, total, 0
        self.bar = self.task = None
        self.lock = threading.Lock()
        self.console = _console(stderr=True)
        self.timer = threading.Timer(self.DELAY, self._show)
        self.timer.daemon = True
        if self.console.is_terminal:
            self.timer.start()

    def _show(self):
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn)
        with self.lock:
            if self.timer is None:                      # the run ended meanwhile
                return
            self.bar = Progress(TextColumn(f"[bold]{self.label}[/]"), BarColumn(),
                                MofNCompleteColumn(), TextColumn("{task.description}"),
                                TimeElapsedColumn(), transient=True, console=self.console)
            self.task = self.bar.add_task("", total=self.total, completed=self.done)
            self.bar.start()

    def tick(self, step):
        with self.lock:
            self.done += 1
            if self.bar is not None:
                self.bar.update(self.task, completed=self.done,
                                description=f"op {step.index} {step.op}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.timer.cancel()
        with self.lock:
            self.timer = None
            if self.bar is not None:
                self.bar.stop()


def _profile(m, steps, path, toolchain, core, clock_mhz, flash_wait_states, inputs, label=None,
             board=None, single_rounding=False):
    """Run the model on one path, with a progress bar on stderr when it is a terminal and the
    run takes a while (`_LateProgress`)."""
    try:
        with _LateProgress(label or path, len(steps)) as progress:
            return profile_mod.run(m, path, toolchain, core, clock_mhz, flash_wait_states,
                                   inputs, steps, progress=progress.tick, board=board,
                                   single_rounding=single_rounding)
    except profile_mod.ProfileError as e:
        _fail(f"{os.path.basename(m.path)}: {e}")
    except machine.MemoryFault as e:
        _fail(f"{os.path.basename(m.path)}: {e}")
    except ModuleNotFoundError as e:
        _fail(f"{os.path.basename(m.path)}: no kernel port available on the {path} path "
              f"({e.name})")
    except (harness.CaseError, ValueError) as e:
        _fail(f"{os.path.basename(m.path)}: {e}")


def _arena(m, steps, path, toolchain):
    try:
        return arena_mod.plan(m, steps, path, toolchain)
    except ModuleNotFoundError as e:
        _fail(f"{os.path.basename(m.path)}: no kernel port to size scratch buffers ({e.name})")


def _console(stderr=False):
    """A terminal's own width; 130 columns when piped, so the per-op table stays readable."""
    import shutil

    from rich.console import Console
    return Console(stderr=stderr, width=max(130, shutil.get_terminal_size((130, 24)).columns))


def _fmt(n):
    return f"{n:,}"


def _op_label(o):
    return f"{o.op}{' (ref)' if o.reference and o.op not in ('',) else ''}"


def _kernel_label(o):
    """The kernel that did the work: the function the entry point dispatched to."""
    from rich.markup import escape
    parts = [p for p in o.kernel.split(" > ")
             if "Eval" not in p and "GetTensorShape" not in p and p != "memcpy"] or ["memcpy"]
    main = parts[1] if len(parts) > 1 and parts[0].endswith("_wrapper_s8") else parts[0]
    tag = "not simulated" if not o.simulated else ("ref" if o.reference else "cmsis")
    return escape(f"{tag}: {main}")


def _common_options(f):
    f = _board_options(f)
    f = click.option("--flash-wait-states", type=click.IntRange(0),
                     help="wait states per flash access (weights live in flash) "
                          "[default: the board's, else 0]")(f)
    f = click.option("--clock-mhz", type=click.FloatRange(min=0, min_open=True),
                     help="core clock [default: the board's, else 100]")(f)
    f = click.option("--toolchain", type=click.Choice(harness.TOOLCHAINS), default="gcc",
                     show_default=True)(f)
    f = click.option("--core", help=f"core cycle model ({', '.join(CORES)}) "
                                    f"[default: the board's, else cortex-m4]")(f)
    return f


def _memory_wait_states(ctx, param, values):
    """`--wait-states extram=8 --wait-states sram=1` -> (("extram", 8), ("sram", 1))."""
    out = []
    for value in values:
        name, _, number = value.partition("=")
        if not name or not number.isdigit():
            raise click.BadParameter(f"{value!r} is not MEMORY=N (N a whole number of wait "
                                     f"states)")
        out.append((name, int(number)))
    return tuple(out)


def _board_options(command):
    """--board and the memory overrides only a board has; the command receives `board` (an
    `armsim.data.boards.Configuration`, or None) and `core`, `clock_mhz`, `flash_wait_states`
    resolved against it."""
    @functools.wraps(command)
    def resolved(board, sram_wait_states, wait_states, arena, stack, weights, no_caches,
                 core, clock_mhz, flash_wait_states, **kwargs):
        config = None
        if board:
            try:
                config = boards.configure(board, clock_mhz,
                                          {"flash": flash_wait_states,
                                           "sram": sram_wait_states, **dict(wait_states)},
                                          arena, weights, not no_caches, core, stack)
            except ValueError as e:
                _fail(f"--board {board}: {e}")
            core, clock_mhz, flash_wait_states = config.core, config.clock_mhz, 0
        else:
            given = [name for name, v in (("--sram-wait-states", sram_wait_states),
                                          ("--wait-states", wait_states),
                                          ("--arena", arena), ("--stack", stack),
                                          ("--weights", weights),
                                          ("--no-caches", no_caches)) if v]
            if given:
                _fail(f"{', '.join(given)} describe a board's memory: give --board "
                      f"(see `armsim boards`)")
        return command(core=core or "cortex-m4", clock_mhz=clock_mhz or 100.0,
                       flash_wait_states=flash_wait_states or 0, board=config, **kwargs)
    for option in (
            click.option("--no-caches", is_flag=True,
                         help="with --board: disable every cache and flash accelerator"),
            click.option("--weights", metavar="MEMORY",
                         help="with --board: the memory the weights live in [default: flash]"),
            click.option("--stack", metavar="MEMORY",
                         help="with --board: the memory the stack lives in [default: sram]"),
            click.option("--arena", metavar="MEMORY",
                         help="with --board: the memory the tensor arena lives in (e.g. dtcm, "
                              "extram) [default: sram]"),
            click.option("--wait-states", "wait_states", metavar="MEMORY=N", multiple=True,
                         callback=_memory_wait_states,
                         help="with --board: wait states of any of the board's memories "
                              "(repeatable, e.g. extram=8)"),
            click.option("--sram-wait-states", type=click.IntRange(0),
                         help="with --board: wait states per SRAM access"),
            click.option("--board", metavar="NAME",
                         help="price memory like this board (core, clock, wait states, "
                              "caches); `armsim boards` lists them")):
        resolved = option(resolved)
    return resolved


def _cycles_label(builds, board):
    """Which builds and memory the cycles describe, for every table's caption."""
    memory = board.describe() if board else "no board: zero-wait-state memory"
    return "; ".join([b.describe() for b in builds] + [memory])


@click.command("profile", epilog=MODEL_HELP)
@click.argument("model", required=False)
@_common_options
@click.option("--path", type=click.Choice(PATHS), default="simd", show_default=True,
              help="simd: CMSIS-NN with DSP; scalar: CMSIS-NN plain C; reference: TFLM kernels")
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
    _check_core(core)
    _check_outputs(json_file, html_file, trace_file)
    m, steps = load_model(model)
    inputs = _inputs(m, input_file)
    prof = _profile(m, steps, path, toolchain, core, clock_mhz, flash_wait_states, inputs,
                    board=board)
    plan = _arena(m, steps, path, toolchain)
    _print_profile(m, prof, plan)
    if stages:
        _print_stages(m, prof)
    data = prof.to_json(plan.total)
    if json_file:
        _write_json(json_file, data)
    if html_file:
        _write_html(html_file, _report(m, core, toolchain, clock_mhz, {path: data}, plan))
    if trace_file:
        _write_json(trace_file, timeline.trace(prof))


def _report(m, core, toolchain, clock_mhz, profiles, plan):
    return {"model": m.name, "core": core, "toolchain": toolchain, "clock_mhz": clock_mhz,
            "profiles": profiles, "arena": plan.to_json(), "why": _why(m, profiles, toolchain)}


def _why(m, profiles, toolchain):
    """Op index (a string, as JSON keys are) -> why the first CMSIS-NN path's kernel ran
    (armsim.analysis.insight.dispatch); {} for a reference-only report."""
    from armsim.analysis import insight
    path = next((p for p in ("simd", "scalar") if p in profiles), None)
    if path is None:
        return {}
    steps = prepare_mod.prepare(m)
    return {str(s.index): insight.dispatch(m, s, o["kernel"], path, toolchain).reason
            for s, o in zip(steps, profiles[path]["ops"])}


def _print_profile(m, prof, plan):
    from rich.table import Table
    total = prof.cycles or 1
    waits = "" if prof.board else f", {prof.flash_wait_states} flash wait states"
    t = Table(title=f"{m.name} on {prof.core} ({prof.path}, {prof.toolchain}, "
                    f"{prof.clock_mhz:g} MHz{waits})",
              caption=_cycles_label([Build(prof.path, prof.toolchain, prof.core)],
                                    prof.board))
    for col, just in (("#", "right"), ("op", "left"), ("types", "left"), ("kernel path", "left"),
                      ("output", "left"), ("MACs", "right"), ("instructions", "right"),
                      ("cycles", "right"), ("cycles/MAC", "right"), ("%", "right")):
        t.add_column(col, justify=just)
    for o in prof.ops:
        cpm = f"{o.cycles / o.macs:.2f}" if o.macs else "-"
        t.add_row(str(o.index), o.op, o.types, _kernel_label(o), "x".join(map(str, o.output_shape)),
                  _fmt(o.macs), _fmt(o.instructions), _fmt(o.cycles), cpm,
                  f"{100 * o.cycles / total:.1f}")
    cpm = f"{prof.cycles / prof.macs:.2f}" if prof.macs else "-"
    t.add_section()
    t.add_row("", "total", "", "", "", _fmt(prof.macs), _fmt(prof.instructions), _fmt(prof.cycles),
              cpm, "100.0")
    con = _console()
    con.print(t)
    con.print(f"latency {prof.latency_ms():.3f} ms at {prof.clock_mhz:g} MHz; arena "
              f"{_fmt(plan.total)} bytes (head {_fmt(plan.head)} + tail {_fmt(plan.tail)})")
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
    t = Table(title=f"{m.name}: cycles by stage, % of each op's cycles ({prof.path}, "
                    f"{prof.core})",
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
    _console().print(t)


@click.command("compare", epilog=MODEL_HELP)
@click.argument("model", required=False)
@_common_options
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
    _check_core(core)
    _check_outputs(json_file, html_file, trace_file)
    m, steps = load_model(model)
    inputs = _inputs(m, input_file)
    profs = {p: _profile(m, steps, p, toolchain, core, clock_mhz, flash_wait_states, inputs,
                         board=board) for p in PATHS}
    from rich.table import Table
    t = Table(title=f"{m.name} on {core}: cycles per path ({toolchain}, {clock_mhz:g} MHz)",
              caption=_cycles_label([Build(p, toolchain, core) for p in PATHS], board))
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
    con = _console()
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
    plans = {p: _arena(m, steps, p, toolchain) for p in PATHS}
    data = {p: profs[p].to_json(plans[p].total) for p in PATHS}
    for op, g in zip(data["simd"]["ops"], gains):
        op["simd_gain"] = g.to_json() if g is not None else None
    if json_file:
        _write_json(json_file, data)
    if html_file:
        _write_html(html_file, _report(m, core, toolchain, clock_mhz, data, plans["simd"]))
    if trace_file:
        _write_json(trace_file, timeline.trace([profs[p] for p in PATHS]))
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
@click.option("--path", type=click.Choice(PATHS), default="simd", show_default=True)
@click.option("--toolchain", type=click.Choice(harness.TOOLCHAINS), default="gcc",
              show_default=True)
def run(model, input_file, output_file, path, toolchain):
    """Run MODEL on --input and write its outputs to --output (.npz, or .npy each)."""
    _check_outputs(*output_file)
    m, steps = load_model(model)
    names = [t.name for t in m.output_tensors()]
    npz = len(output_file) == 1 and output_file[0].endswith(".npz")
    if not npz and len(output_file) != len(names):
        _fail(f"{', '.join(output_file)}: model has {len(names)} outputs ({', '.join(names)}): "
              f"give one .npz or {len(names)} --output .npy files")
    inputs = _inputs(m, input_file)
    prof = _profile(m, steps, path, toolchain, "cortex-m4", 100.0, 0, inputs)
    if npz:
        arrays = dict(zip(names, prof.outputs))
        output.write(output_file[0], lambda f: np.savez(f, **arrays))
        written = [(output_file[0], a) for a in prof.outputs]
    else:
        for target, out in zip(output_file, prof.outputs):
            output.write(target, lambda f, out=out: np.save(f, out, allow_pickle=False))
        written = list(zip(output_file, prof.outputs))
    con = _console()
    for target, out in written:
        con.print(f"{target}: {out.dtype} {list(out.shape)} ({path}, "
                  f"{_fmt(prof.instructions)} instructions)")


@click.command("arena", epilog=MODEL_HELP)
@click.argument("model", required=False)
@click.option("--path", type=click.Choice(PATHS), default="simd", show_default=True)
@click.option("--toolchain", type=click.Choice(harness.TOOLCHAINS), default="gcc",
              show_default=True)
@click.option("--json", "json_file", type=click.Path(), help="write the plan as JSON")
def arena(model, path, toolchain, json_file):
    """The arena plan: each buffer's offset and lifetime, head + tail = arena_used_bytes."""
    _check_outputs(json_file)
    m, steps = load_model(model)
    plan = _arena(m, steps, path, toolchain)
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
    con = _console()
    con.print(t)
    con.print("tail: " + ", ".join(f"{k} {_fmt(v)}" for k, v in plan.tail_parts.items()))
    if json_file:
        _write_json(json_file, plan.to_json())


COMMANDS = [profile, compare, run, arena]
