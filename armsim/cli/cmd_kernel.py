"""`armsim kernel CASE.json`: run one op case on the machine, check it, count it, price it."""
import json
from pathlib import Path

import click
import numpy as np

from armsim.infra import output
from armsim.cli.common import build as parse_build
from armsim.cpu import cores, machine
from armsim.errors import CaseError


def _fail(message):
    raise click.ClickException(message)


def load_case(case_file):
    """The case as a dict, or one clear line naming the file."""
    path = Path(case_file)
    if not path.is_file():
        _fail(f"{case_file}: no such file")
    try:
        case = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        _fail(f"{case_file}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})")
    except (OSError, UnicodeDecodeError) as e:
        _fail(f"{case_file}: cannot read ({e})")
    if not isinstance(case, dict):
        _fail(f"{case_file}: not a case (a JSON object with 'family' and the op's fields)")
    return case


def run(case, case_file, build, function=None, flash_wait_states=0):
    """Run `case` on `build` and gather the report (a JSON-ready dict).  Errors:
    ClickException."""
    from armsim.pipeline import harness
    try:
        result = harness.run_case(case, build, function)
    except machine.MemoryFault as e:
        _fail(f"{case_file}: {e}")
    except CaseError as e:
        _fail(f"{case_file}: {e}")
    except ModuleNotFoundError as e:
        _fail(f"{case_file}: no port for family {case.get('family')!r} on the {build.path} path "
              f"({e.name})")
    except KeyError as e:
        _fail(f"{case_file}: missing field {e.args[0]!r} for family {case.get('family')!r}")
    except (TypeError, ValueError, IndexError) as e:
        _fail(f"{case_file}: malformed case ({type(e).__name__}: {e})")
    mnemonics = dict(sorted(result.counts().items(), key=lambda kv: (-kv[1], kv[0])))
    terms = cores.breakdown(result.m, build.core, flash_wait_states, result.region_names)
    report = {
        "case": case.get("case", Path(case_file).stem),
        "file": str(case_file),
        "family": result.family,
        "function": result.kernel_path[0] if result.kernel_path else function,
        "kernel_path": list(result.kernel_path),
        "path": build.path,
        "toolchain": build.toolchain,
        "core": build.core,
        "flash_wait_states": flash_wait_states,
        "bit_exact": None,
        "instructions": int(sum(mnemonics.values())),
        "mnemonics": mnemonics,
        # of those, the instructions of fitted ops (bookkeeping calibrated on measured counts)
        "fitted_instructions": sum(result.fitted_counts().values()),
        "fitted_mnemonics": dict(sorted(result.fitted_counts().items(),
                                        key=lambda kv: (-kv[1], kv[0]))),
        "cycles": terms["total"],
        "cycle_terms": {k: v for k, v in terms.items() if k != "total"},
        "taken_branches": machine.counter(result.m, machine.TAKEN),
        "memory": machine.region_traffic(result.m, result.region_names),
        "measured": None,
    }
    if "output_ref" in case:
        expected = np.asarray(case["output_ref"], np.int64).ravel()
        got = result.output.astype(np.int64)
        if expected.shape != got.shape:
            report["bit_exact"] = False
            report["mismatch"] = f"output has {got.size} values, output_ref {expected.size}"
        else:
            bad = np.flatnonzero(expected != got)
            report["bit_exact"] = bad.size == 0
            if bad.size:
                i = int(bad[0])
                report["mismatch"] = (f"{bad.size} of {got.size} outputs differ from output_ref "
                                      f"(first at {i}: {int(got[i])}, expected {int(expected[i])})")
    measured_build = build.measured_build
    measured = (case.get("measured") or {}).get(measured_build) if measured_build else None
    if measured:
        n = measured["instructions"]
        report["measured"] = {
            "build": measured_build,
            "instructions": n,
            "relative_difference": (report["instructions"] - n) / n,
            "mnemonics": measured.get("mnemonic_histogram", {}),
            # the reference's Cortex-M4 TRM estimate (its README); comparable on cortex-m4
            "cycles_trm": measured.get("cycles_trm"),
        }
    return report


def write_json(report, out):
    """Write atomically: a complete file or none."""
    output.write_text(out, json.dumps(report, indent=2) + "\n")


def show(report):
    from rich.console import Console
    from rich.table import Table

    console = Console(width=100, highlight=False)
    console.print(f"[bold]{report['case']}[/] ({report['family']}), path {report['path']}, "
                  f"toolchain {report['toolchain']}, core {report['core']}")
    console.print("kernel path: " + " -> ".join(report["kernel_path"]))
    measured = report["measured"]
    table = Table(title="instructions by mnemonic")
    table.add_column("mnemonic")
    table.add_column("armsim", justify="right")
    table.add_column("of which fitted", justify="right")
    if measured:
        table.add_column(f"measured {measured['build']}", justify="right")
    names = list(report["mnemonics"])
    if measured:
        names += [mn for mn in measured["mnemonics"] if mn not in report["mnemonics"]]
    for mn in names:
        fitted = report["fitted_mnemonics"].get(mn, 0)
        row = [mn, f"{report['mnemonics'].get(mn, 0):,}", f"{fitted:,}" if fitted else ""]
        if measured:
            row.append(f"{measured['mnemonics'].get(mn, 0):,}")
        table.add_row(*row)
    total = ["total", f"{report['instructions']:,}", f"{report['fitted_instructions']:,}"]
    if measured:
        total.append(f"{measured['instructions']:,}")
    table.add_row(*total, style="bold")
    console.print(table)
    if measured:
        console.print(f"instructions: armsim {report['instructions']:,}, measured "
                      f"{measured['instructions']:,} ({measured['build']}), difference "
                      f"{measured['relative_difference']:+.2%}")
    cycles = Table(title=f"cycles on {report['core']}")
    cycles.add_column("term")
    cycles.add_column("cycles", justify="right")
    for term, value in report["cycle_terms"].items():
        cycles.add_row(term, f"{value:,}")
    cycles.add_row("total", f"{report['cycles']:,}", style="bold")
    console.print(cycles)
    if measured and measured["cycles_trm"] and report["core"] == "cortex-m4":
        trm = measured["cycles_trm"]
        console.print(f"cycles: armsim {report['cycles']:,}, measured-run Cortex-M4 TRM estimate "
                      f"{trm:,} (cycles_trm), difference {(report['cycles'] - trm) / trm:+.2%}")
    if report["bit_exact"] is None:
        console.print("output: no output_ref in the case, not checked")
    elif report["bit_exact"]:
        console.print("output: bit-exact with output_ref")
    else:
        console.print(f"output: MISMATCH, {report['mismatch']}")


@click.command("kernel")
@click.argument("case_file", metavar="CASE.json")
@click.option("--path", "path", default="simd", show_default=True,
              help="simd (CMSIS-NN ARM_MATH_DSP), scalar (CMSIS-NN plain C) or reference (TFLM)")
@click.option("--core", default="cortex-m4", show_default=True,
              help="cycle model: " + ", ".join(cores.CORES))
@click.option("--toolchain", default="gcc", show_default=True, help="gcc or armclang")
@click.option("--function", default=None,
              help="CMSIS-NN entry point to call (default: the one the model layer calls)")
@click.option("--flash-wait-states", type=click.IntRange(min=0), default=0, show_default=True,
              help="wait states per word loaded from flash (weights, bias, multipliers)")
@click.option("--json", "json_out", metavar="OUT", default=None, help="write the report as JSON")
def kernel(case_file, path, core, toolchain, function, flash_wait_states, json_out):
    """Run CASE.json (the CMSIS-NN vectors' schema) on the machine: check output_ref,
    show the kernel path, instructions by mnemonic and cycles, and the measured counts
    when the file has them.  Exits non-zero when the output does not match."""
    build = parse_build(path, toolchain, core)
    if json_out:
        output.check(json_out)                   # fail before the run, not after
    case = load_case(case_file)
    report = run(case, case_file, build, function, flash_wait_states)
    if json_out:
        write_json(report, json_out)
    show(report)
    if report["bit_exact"] is False:
        click.echo(f"Error: {report['case']}: {report['mismatch']}", err=True)
        raise SystemExit(1)


COMMANDS = [kernel]
