"""`armsim kernel`: a real case end to end, its JSON report, and every bad input as one
clear line with a non-zero exit, no traceback and no output file.

All runs use one fully connected case (fc_64_32, with measured counts) so that numba
compiles one family."""
import json

import pytest
from click.testing import CliRunner

from armsim.cli.main import main

from conftest import REFERENCE

CASE = REFERENCE / "fc_64_32.json"


def invoke(*args):
    return CliRunner().invoke(main, ["kernel", *map(str, args)])


def one_line_error(result, *words):
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(scope="module")
def simd_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("kernel") / "report.json"
    result = invoke(CASE, "--json", out)
    assert result.exit_code == 0, result.output
    return result.output, json.loads(out.read_text())


def test_reports_path_counts_cycles_and_measured(simd_report):
    text, report = simd_report
    case = json.loads(CASE.read_text())
    for key in ("case", "function", "kernel_path", "path", "core", "bit_exact", "instructions",
                "mnemonics", "cycles"):
        assert key in report
    assert report["case"] == "fc_64_32" and report["path"] == "simd"
    assert report["core"] == "cortex-m4" and report["bit_exact"] is True
    assert report["kernel_path"][0] == report["function"] == case["function"]
    assert report["instructions"] == sum(report["mnemonics"].values())
    assert report["cycles"] == sum(report["cycle_terms"].values())
    measured = report["measured"]
    assert measured["build"] == "dsp_O2"
    assert measured["instructions"] == case["measured"]["dsp_O2"]["instructions"]
    assert measured["relative_difference"] == pytest.approx(
        (report["instructions"] - measured["instructions"]) / measured["instructions"])
    assert " -> ".join(report["kernel_path"]) in text
    assert "bit-exact" in text and "smlad" in text and f"{report['cycles']:,}" in text
    assert f"{measured['instructions']:,}" in text


def test_scalar_path_compares_with_scalar_build(tmp_path):
    out = tmp_path / "r.json"
    result = invoke(CASE, "--path", "scalar", "--json", out)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["measured"]["build"] == "scalar_O2"
    assert "smlad" not in report["mnemonics"]          # no DSP instruction on the plain-C path


def test_reference_path_has_no_measured_build(tmp_path):
    out = tmp_path / "r.json"
    result = invoke(CASE, "--path", "reference", "--json", out)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["path"] == "reference" and report["bit_exact"] is True
    assert report["measured"] is None                  # measurements are of CMSIS-NN builds
    assert report["instructions"] == sum(report["mnemonics"].values()) > 0


def test_core_and_wait_states_change_cycles_not_counts(simd_report, tmp_path):
    _, m4 = simd_report
    out = tmp_path / "m7.json"
    assert invoke(CASE, "--core", "cortex-m7", "--flash-wait-states", "2", "--json", out).exit_code == 0
    m7 = json.loads(out.read_text())
    assert m7["mnemonics"] == m4["mnemonics"]
    assert m7["cycles"] != m4["cycles"]
    flash = m7["memory"]["flash"]
    assert flash["load_beats"] > 0
    assert m7["cycle_terms"]["wait_states"] == 2 * (flash["load_beats"] + flash["store_beats"])


def test_mismatch_exits_non_zero(tmp_path):
    case = json.loads(CASE.read_text())
    case["output_ref"][3] = case["output_ref"][3] ^ 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(case))
    out = tmp_path / "r.json"
    result = invoke(bad, "--json", out)
    assert result.exit_code == 1
    assert "1 of 32 outputs differ" in result.output and "first at 3" in result.output
    assert json.loads(out.read_text())["bit_exact"] is False


@pytest.mark.parametrize("make, words", [
    (lambda d: d / "missing.json", ["missing.json", "no such file"]),
    (lambda d: _write(d / "broken.json", '{"family": "fully_connected", '), ["broken.json", "not valid JSON"]),
    (lambda d: _write(d / "list.json", "[1, 2]"), ["list.json", "not a case"]),
    (lambda d: _write(d / "fam.json", '{"family": "no_such_family"}'), ["fam.json", "unknown family 'no_such_family'"]),
    (lambda d: _write(d / "short.json", '{"family": "fully_connected", "case": "x"}'), ["short.json", "missing field"]),
])
def test_bad_case_file(tmp_path, make, words):
    out = tmp_path / "out.json"
    one_line_error(invoke(make(tmp_path), "--json", out), *words)
    assert not out.exists()


def test_json_to_missing_directory(tmp_path):
    out = tmp_path / "nowhere" / "out.json"
    one_line_error(invoke(CASE, "--json", out), "does not exist")
    assert not out.exists()


@pytest.mark.parametrize("option, value, word", [
    ("--core", "cortex-m99", "unknown core 'cortex-m99'"),
    ("--path", "neon", "unknown path 'neon'"),
    ("--toolchain", "iar", "unknown toolchain 'iar'"),
])
def test_bad_option(tmp_path, option, value, word):
    out = tmp_path / "out.json"
    one_line_error(invoke(CASE, option, value, "--json", out), word)
    assert not out.exists()


def _write(path, text):
    path.write_text(text)
    return path
