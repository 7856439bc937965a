"""--trace-json: the per-op timeline in the Chrome trace-event format (armsim.analysis.timeline)."""
import json

import pytest
from click.testing import CliRunner

from armsim.cli.main import main


def _check_trace(trace, profiles):
    """Valid trace-event JSON for `profiles` ({path: the --json profile of the same run}):
    one named process per path, complete events in op order that tile the run without gaps,
    durations summing to the total cycles at the clock."""
    events = trace["traceEvents"]
    assert json.loads(json.dumps(trace)) == trace
    for e in events:
        assert e["ph"] in ("X", "M") and isinstance(e["pid"], int) and isinstance(e["tid"], int)
        assert isinstance(e["name"], str)
    names = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
    assert len(names) == len(profiles)
    for pid, (path, prof) in enumerate(profiles.items(), start=1):
        assert f" {path} on {prof['core']} " in names[pid]
        ops = [e for e in events if e["ph"] == "X" and e["pid"] == pid]
        mhz = prof["clock_mhz"]
        assert [e["args"]["index"] for e in ops] == [o["index"] for o in prof["ops"]]
        assert [e["args"]["cycles"] for e in ops] == [o["cycles"] for o in prof["ops"]]
        assert [e["args"]["kernel"] for e in ops] == [o["kernel"] for o in prof["ops"]]
        assert [e["args"]["instructions"] for e in ops] == \
            [o["instructions"] for o in prof["ops"]]
        assert [e["args"]["macs"] for e in ops] == [o["macs"] for o in prof["ops"]]
        assert sum(e["dur"] for e in ops) * mhz == pytest.approx(prof["total"]["cycles"],
                                                                  rel=1e-12)
        end = 0.0
        for e in ops:                     # in order, each starting where the last ended
            assert e["ts"] == pytest.approx(end, rel=1e-12, abs=1e-9) and e["dur"] >= 0
            end = e["ts"] + e["dur"]
        assert end * mhz == pytest.approx(prof["total"]["cycles"], rel=1e-12)


def test_profile_trace_json(tmp_path):
    trace, data = tmp_path / "trace.json", tmp_path / "profile.json"
    r = CliRunner().invoke(main, ["profile", "--clock-mhz", "80", "--trace-json", str(trace),
                                  "--json", str(data)])
    assert r.exit_code == 0, r.output
    prof = json.loads(data.read_text())
    assert prof["clock_mhz"] == 80 and prof["total"]["cycles"] > 0
    _check_trace(json.loads(trace.read_text()), {"simd": prof})


def test_compare_trace_json_has_one_process_per_path(tmp_path):
    trace, data = tmp_path / "trace.json", tmp_path / "compare.json"
    r = CliRunner().invoke(main, ["compare", "--trace-json", str(trace), "--json", str(data)])
    assert r.exit_code == 0, r.output
    profiles = json.loads(data.read_text())
    assert list(profiles) == ["simd", "scalar", "reference"]
    _check_trace(json.loads(trace.read_text()), profiles)


def test_unwritable_trace_path_fails_before_the_run(tmp_path):
    r = CliRunner().invoke(main, ["profile", "--trace-json", str(tmp_path / "no" / "t.json")])
    assert r.exit_code != 0 and "does not exist" in r.output and "Traceback" not in r.output
