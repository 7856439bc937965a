"""`armsim lint MODEL`: int8 quantization-spec findings that matter on CMSIS-NN (armsim.analysis.lint).

Exit status as linters have it: 0 clean, 1 findings, 2 a model that cannot be read (one
line naming the file and the op or tensor)."""
import json

import click

from armsim import api
from armsim.analysis import lint as lint_mod
from armsim.pipeline import model as model_mod
from armsim.infra import output
from armsim.cli.common import MODEL_HELP


class _Unreadable(click.ClickException):
    exit_code = 2


@click.command("lint", help="Check an int8 model against TFLite's quantization spec: each "
                            "finding names the tensor and what it costs or breaks on CMSIS-NN "
                            "(refused, outputs, speed or note).  Exit 0 clean, 1 findings, "
                            "2 unreadable model.\n\n" + MODEL_HELP)
@click.argument("model", required=False)
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="also write the findings as JSON ({model, findings: [{rule, kind, op, "
                   "tensor, problem, effect}]})")
def lint_command(model, json_path):
    if json_path:
        output.check(json_path)
    try:
        m = api.load_model(model)
    except model_mod.ModelError as e:
        raise _Unreadable(str(e)) from None
    findings = lint_mod.lint(m)
    name = m.path
    for f in findings:
        click.echo(f"{name}: {f.line()}")
    counts = {k: sum(f.kind == k for f in findings) for k in lint_mod.KINDS}
    summary = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    click.echo(f"{name}: {len(findings)} finding{'s' * (len(findings) != 1)}"
               + (f" ({summary})" if summary else ""))
    if json_path:
        output.write_text(json_path, json.dumps(
            {"model": name, "findings": [f.to_json() for f in findings]}, indent=1) + "\n")
    if findings:
        raise SystemExit(1)


COMMANDS = [lint_command]
