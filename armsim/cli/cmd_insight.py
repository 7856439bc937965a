"""`armsim why MODEL`: per op, the kernel path and the condition in the CMSIS-NN wrapper that
chose it, and the cycles of nearby variants that would take a faster path (armsim.insight)."""

import click

from armsim import insight
from armsim.cli import cmd_model
from armsim.cli.cmd_model import MODEL_HELP


@click.command("why", epilog=MODEL_HELP)
@click.argument("model", required=False)
@cmd_model._common_options
@click.option("--path", type=click.Choice(("simd", "scalar")), default="simd",
              show_default=True, help="the CMSIS-NN build whose dispatch to explain")
@click.option("--op", "op_indices", type=int, multiple=True,
              help="explain only these ops (repeat) [default: all]")
@click.option("--no-counterfactuals", is_flag=True,
              help="skip simulating the changed layers (faster)")
@click.option("--json", "json_file", type=click.Path(),
              help="write {ops: [{dispatch..., cycles, counterfactuals}]} as JSON")
def why(model, core, toolchain, clock_mhz, flash_wait_states, board, path, op_indices,
        no_counterfactuals, json_file):
    """Why each layer takes its kernel path, and what a nearby variant would cost."""
    cmd_model._check_core(core)
    cmd_model._check_outputs(json_file)
    m, steps = cmd_model.load_model(model)
    known = {s.index for s in steps}
    unknown = [i for i in op_indices if i not in known]
    if unknown:
        cmd_model._fail(f"{m.name}: no op {unknown[0]} (ops 0-{len(steps) - 1})")
    prof = cmd_model._profile(m, steps, path, toolchain, core, clock_mhz, flash_wait_states,
                              None, board=board)
    options = {"core": core, "clock_mhz": clock_mhz, "flash_wait_states": flash_wait_states,
               "board": board}
    rows = []
    for step, o in zip(steps, prof.ops):
        if op_indices and step.index not in op_indices:
            continue
        d = insight.dispatch(m, step, o.kernel, path, toolchain)
        cfs = [] if no_counterfactuals else \
            insight.counterfactuals(m, d, path, toolchain, **options)
        click.echo(f"op {d.index} {d.op} ({o.cycles:,} cycles): {d.reason}")
        for c in cfs:
            click.echo(f"    {c.text()}")
        rows.append(dict(d.to_json(), cycles=o.cycles,
                         counterfactuals=[c.to_json() for c in cfs]))
    if json_file:
        cmd_model._write_json(json_file, {"model": m.name, "path": path, "core": core,
                                          "ops": rows})


COMMANDS = [why]
