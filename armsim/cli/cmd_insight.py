"""`armsim why MODEL`: per op, the kernel path and the condition in the CMSIS-NN wrapper that
chose it, and the cycles of nearby variants that would take a faster path (armsim.analysis.insight).
`armsim whatif MODEL --vs KEY=VALUE`: the same model run again with one build or core choice
changed, per op and in total."""

import click
import numpy as np

from armsim.analysis import insight
from armsim.cli.common import (MODEL_HELP, build, build_options, check_outputs, console, fail,
                               load_model, path_option, profile, write_json)
from armsim.pipeline.build import PATHS


@click.command("why", epilog=MODEL_HELP)
@click.argument("model", required=False)
@build_options
@path_option(("simd", "scalar"), help="the CMSIS-NN build whose dispatch to explain")
@click.option("--op", "op_indices", type=int, multiple=True,
              help="explain only these ops (repeat) [default: all]")
@click.option("--no-counterfactuals", is_flag=True,
              help="skip simulating the changed layers (faster)")
@click.option("--json", "json_file", type=click.Path(),
              help="write {ops: [{dispatch..., cycles, counterfactuals}]} as JSON")
def why(model, core, toolchain, clock_mhz, flash_wait_states, board, path, op_indices,
        no_counterfactuals, json_file):
    """Why each layer takes its kernel path, and what a nearby variant would cost."""
    b = build(path, toolchain, core)
    check_outputs(json_file)
    m, steps = load_model(model)
    known = {s.index for s in steps}
    unknown = [i for i in op_indices if i not in known]
    if unknown:
        fail(f"{m.name}: no op {unknown[0]} (ops 0-{len(steps) - 1})")
    prof = profile(m, steps, b, clock_mhz, flash_wait_states, None, board=board)
    options = {"clock_mhz": clock_mhz, "flash_wait_states": flash_wait_states, "board": board}
    rows = []
    for step, o in zip(steps, prof.ops):
        if op_indices and step.index not in op_indices:
            continue
        d = insight.dispatch(m, step, o.kernel, b)
        cfs = [] if no_counterfactuals else insight.counterfactuals(m, d, b, **options)
        click.echo(f"op {d.index} {d.op} ({o.cycles:,} cycles): {d.reason}")
        for c in cfs:
            click.echo(f"    {c.text()}")
        rows.append(dict(d.to_json(), cycles=o.cycles,
                         counterfactuals=[c.to_json() for c in cfs]))
    if json_file:
        write_json(json_file, {"model": m.name, "path": path, "core": core, "ops": rows})


# --vs keys: the profile option each changes, and how its value is read
WHATIF_KEYS = {"core": ("core", str), "toolchain": ("toolchain", str),
               "clock-mhz": ("clock_mhz", float), "flash-wait-states": ("flash_wait_states", int),
               "dsp": ("path", {"on": "simd", "off": "scalar"}.__getitem__),
               "path": ("path", str),
               # CMSIS-NN's CMSIS_NN_USE_SINGLE_ROUNDING requantization (it changes outputs)
               "rounding": ("single_rounding", {"single": True, "double": False}.__getitem__)}


def _change(text):
    key, sep, value = text.partition("=")
    if not sep or key not in WHATIF_KEYS:
        fail(f"--vs {text}: give KEY=VALUE with KEY one of {', '.join(WHATIF_KEYS)}")
    option, parse = WHATIF_KEYS[key]
    try:
        return option, parse(value)
    except (KeyError, ValueError):
        fail(f"--vs {text}: bad value {value!r}")


@click.command("whatif", epilog=MODEL_HELP)
@click.argument("model", required=False)
@build_options
@path_option()
@click.option("--vs", "changes", multiple=True, required=True, metavar="KEY=VALUE",
              help="the change to try (repeat to change several): core=NAME, toolchain=gcc|"
                   "armclang, clock-mhz=F, flash-wait-states=N, dsp=on|off, path=PATH, "
                   "rounding=single|double (CMSIS_NN_USE_SINGLE_ROUNDING)")
@click.option("--json", "json_file", type=click.Path(),
              help="write {base, changed: profile JSON, delta} as JSON")
def whatif(model, core, toolchain, clock_mhz, flash_wait_states, board, path, changes,
           json_file):
    """MODEL as given vs MODEL with one thing changed: cycles per op and in total."""
    base_options = {"core": core, "toolchain": toolchain, "path": path,
                    "single_rounding": False, "clock_mhz": clock_mhz,
                    "flash_wait_states": flash_wait_states}
    changed_options = dict(base_options, **dict(_change(c) for c in changes))
    if changed_options["path"] not in PATHS:
        fail(f"--vs path={changed_options['path']}: choose from {', '.join(PATHS)}")
    if changed_options["single_rounding"] and changed_options["path"] == "reference":
        fail("--vs rounding=single: CMSIS_NN_USE_SINGLE_ROUNDING changes CMSIS-NN's "
             "kernels; the reference path runs TFLM's (choose --path simd or scalar)")
    builds = [build(o["path"], o["toolchain"], o["core"], o["single_rounding"])
              for o in (base_options, changed_options)]
    check_outputs(json_file)
    m, steps = load_model(model)
    runs = [profile(m, steps, b, o["clock_mhz"], o["flash_wait_states"], None, label=label,
                    board=board)
            for b, o, label in zip(builds, (base_options, changed_options), ("base", "changed"))]
    base, changed = runs
    what = ", ".join(changes)
    from rich.table import Table
    t = Table(title=f"{m.name}: {what} (base: {path}, {core}, {toolchain}, {clock_mhz:g} MHz)")
    for col in ("#", "op", "base cycles", "changed cycles", "delta"):
        t.add_column(col, justify="left" if col == "op" else "right")

    def delta(a, b):
        return f"{100 * (b - a) / a:+.1f} %" if a else "-"
    for a, b in zip(base.ops, changed.ops):
        t.add_row(str(a.index), a.op, f"{a.cycles:,}", f"{b.cycles:,}", delta(a.cycles, b.cycles))
    t.add_section()
    t.add_row("", "total", f"{base.cycles:,}", f"{changed.cycles:,}",
              delta(base.cycles, changed.cycles))
    con = console()
    con.print(t)
    con.print(f"latency {base.latency_ms():.3f} ms -> {changed.latency_ms():.3f} ms")
    same = all(np.array_equal(x, y) for x, y in zip(base.outputs, changed.outputs))
    con.print("outputs: identical" if same else "outputs: differ (the change changes results)")
    if json_file:
        write_json(json_file, {"changes": list(changes), "base": base.to_json(),
                               "changed": changed.to_json()})


COMMANDS = [why, whatif]
