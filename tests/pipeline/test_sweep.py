"""`armsim sweep`, `armsim.sweep(...)`, `armsim.latency(...)` (armsim.sweeps): rows equal to
`armsim profile --json`, a stopped or killed sweep resumes without recomputing, the local pool
and a Dask cluster give the rows of one process, failures are rows, bad input is one line."""
import json
import os
import signal
import subprocess
import sys
import textwrap

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import armsim
from armsim import sweeps
from armsim.cli.main import main
from model_helpers import tiny_graph, tiny_model_bytes

BAD = "bad.tflite"


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """Two tiny models and a truncated one, in a directory."""
    directory = tmp_path_factory.mktemp("models")
    for seed in (0, 1):
        (directory / f"tiny{seed}.tflite").write_bytes(tiny_model_bytes(seed))
    (directory / BAD).write_bytes(tiny_model_bytes(0)[:200])
    return directory


def _invoke(args):
    return CliRunner().invoke(main, args)


def _rows(table):
    """A results table as sorted row dicts (maps as dicts), for comparisons."""
    rows = []
    for row in table.to_pylist():
        rows.append({k: dict(v) if k in ("mnemonics", "fitted_mnemonics", "stage_instructions")
                     and v is not None else v for k, v in row.items()})
    return sorted(rows, key=lambda r: (r["model_sha256"], r["config"], r["row"],
                                       -1 if r["op_index"] is None else r["op_index"]))


def _json_op(row):
    """The `armsim profile --json` op a sweep row holds."""
    stages = {s: {"cycles": row[f"stage_{s}"], "instructions": n}
              for s, n in row["stage_instructions"].items()}
    return {"index": row["op_index"], "op": row["op"], "kernel": row["kernel"],
            "reference": row["reference"], "output_shape": row["output_shape"],
            "macs": row["macs"], "instructions": row["instructions"], "cycles": row["cycles"],
            "cycles_min": row["cycles_min"], "cycles_max": row["cycles_max"],
            "mnemonics": row["mnemonics"], "fitted_instructions": row["fitted_instructions"],
            "fitted_mnemonics": row["fitted_mnemonics"], "stages": stages,
            "simulated": row["simulated"], "types": row["types"]}


# the configurations of the command-line sweep and the `armsim profile` flags of each
# (rounding=single: `armsim whatif --vs rounding=single`, whose "changed" run it is)
PROFILE_FLAGS = {
    "core=cortex-m4,path=simd,toolchain=gcc,clock-mhz=100,flash-wait-states=0,"
    "rounding=double": [],
    "core=cortex-m33,path=scalar,toolchain=armclang,clock-mhz=50,flash-wait-states=2,"
    "rounding=double": ["--core", "cortex-m33", "--path", "scalar", "--toolchain", "armclang",
                        "--clock-mhz", "50", "--flash-wait-states", "2"],
    "board=stm32f429i-disc1,core=cortex-m4,path=simd,toolchain=gcc,clock-mhz=180,"
    "rounding=double,arena=extram,caches=off": ["--board", "stm32f429i-disc1", "--arena",
                                                 "extram", "--no-caches"],
    "core=cortex-m4,path=simd,toolchain=gcc,clock-mhz=100,flash-wait-states=0,"
    "rounding=single": ["--vs", "rounding=single"],
}


def test_sweep_rows_are_profile_json_op_by_op(models, tmp_path):
    """A command-line sweep (a directory, a product and a list of configurations): every row
    equals `armsim profile --json` of that model and configuration; the truncated model is an
    error row with `armsim profile`'s one-line error."""
    out = tmp_path / "r.parquet"
    result = _invoke(["sweep", str(models), "-o", str(out), "--set", "rounding=double,single",
                      "--config", "core=cortex-m4",
                      "--config", "core=cortex-m33,path=scalar,toolchain=armclang,clock-mhz=50,"
                                  "flash-wait-states=2",
                      "--config", "board=stm32f429i-disc1,arena=extram,caches=off"])
    assert result.exit_code == 0, result.output
    assert "18 runs (3 models x 6 configurations): 18 profiled, 0 already there, 6 errors" \
        in result.output
    assert not os.path.exists(f"{out}.journal")
    rows = pq.read_table(out).to_pylist()
    configs = {r["config"] for r in rows}
    assert set(PROFILE_FLAGS) <= configs
    for config, flags in PROFILE_FLAGS.items():
        for seed in (0, 1):
            path = models / f"tiny{seed}.tflite"
            mine = [r for r in rows if r["model"] == str(path) and r["config"] == config]
            js = tmp_path / "p.json"
            command = ["whatif", str(path)] if "--vs" in flags else ["profile", str(path)]
            done = _invoke(command + flags + ["--json", str(js)])
            assert done.exit_code == 0, done.output
            want = json.loads(js.read_text())
            want = want["changed"] if "--vs" in flags else want
            ops, total = mine[:-1], mine[-1]
            assert [r["row"] for r in mine] == ["op"] * len(want["ops"]) + ["total"]
            for row, op in zip(ops, want["ops"]):
                row = dict(row, **{k: dict(row[k]) for k in
                                   ("mnemonics", "fitted_mnemonics", "stage_instructions")})
                assert _json_op(row) == op
            assert {k: total[k] for k in want["total"]} == want["total"]
            if "--vs" not in flags:           # whatif's JSON runs have no arena plan
                assert total["arena_bytes"] == want["arena_bytes"]
            assert (total["core"], total["path"], total["toolchain"], total["clock_mhz"]) == \
                (want["core"], want["path"], want["toolchain"], want["clock_mhz"])
            assert (total["board"], total["single_rounding"]) == (
                want["board"] and want["board"]["board"], "--vs" in flags)
    bad = [r for r in rows if r["model"].endswith(BAD)]
    assert len(bad) == 6 and {r["row"] for r in bad} == {"error"}
    failed = _invoke(["profile", str(models / BAD)])
    assert failed.exit_code != 0
    assert {r["error"] for r in bad} == {failed.output.strip().removeprefix("Error: ")}
    assert len({r["model_sha256"] for r in rows}) == 3
    assert {r["armsim_version"] for r in rows} == {sweeps.VERSION}


def _counting(monkeypatch, stop_at=None, stop=KeyboardInterrupt):
    """Count the runs computed (`profile_rows` calls); raise `stop` at call `stop_at`."""
    calls = []
    real = sweeps.profile_rows

    def counted(data, label, config):
        calls.append((label, config.label()))
        if len(calls) == stop_at:
            raise stop()
        return real(data, label, config)
    monkeypatch.setattr(sweeps, "profile_rows", counted)
    return calls


AXES = {"core": ["cortex-m4", "cortex-m7"], "clock_mhz": [50, 100]}


def _reference(models):
    """The rows of the whole sweep, computed in one uninterrupted go, without a file."""
    return _rows(sweeps.run(models, axes=AXES, jobs=1).table)


def test_an_interrupted_sweep_resumes_without_recomputing(models, tmp_path, monkeypatch):
    out = tmp_path / "r.parquet"
    calls = _counting(monkeypatch, stop_at=5)
    with pytest.raises(KeyboardInterrupt):
        armsim.sweep(models, output=out, jobs=1, **AXES)
    assert len(calls) == 5 and out.exists()          # 4 finished runs, folded in on the way out
    finished = set(calls[:4])
    monkeypatch.undo()
    calls = _counting(monkeypatch)
    resumed = armsim.sweep(models, output=out, jobs=1, **AXES)
    assert len(calls) == 12 - 4, "only the unfinished runs are computed"
    assert not finished & set(calls) and len(set(calls)) == len(calls)
    full = _reference(models)
    assert _rows(pq.read_table(out)) == full
    assert len(resumed) == len(full)
    assert list(resumed["row"].value_counts().sort_index()) == [4, 8 * 3, 8]
    calls.clear()
    armsim.sweep(models, output=out, jobs=1, **AXES)
    assert calls == [], "a finished sweep computes nothing"


def test_a_killed_sweep_loses_only_the_run_in_flight(models, tmp_path, monkeypatch):
    """The process dies (os._exit: no clean-up) while computing its fifth run: the journal
    holds the four before it; a cut last line (a kill during a write) is ignored."""
    out = tmp_path / "r.parquet"
    script = textwrap.dedent(f"""
        import os
        from armsim import sweeps
        real, calls = sweeps.profile_rows, []
        def dies(*args):
            calls.append(args)
            if len(calls) == 5:
                os._exit(9)
            return real(*args)
        sweeps.profile_rows = dies
        sweeps.run({str(models)!r}, axes={AXES!r}, output={str(out)!r}, jobs=1)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.returncode == 9, done.stderr
    journal = tmp_path / "r.parquet.journal"
    assert not out.exists() and len(journal.read_text().splitlines()) == 4
    with open(journal, "a") as f:
        f.write('[{"model": "cut')
    calls = _counting(monkeypatch)
    armsim.sweep(models, output=out, jobs=1, **AXES)
    assert len(calls) == 12 - 4
    assert _rows(pq.read_table(out)) == _reference(models)
    assert not journal.exists()


def test_pool_and_dask_cluster_rows_equal_one_process(models, tmp_path, monkeypatch):
    """The local pool and a Dask LocalCluster (2 worker processes, one killed mid-sweep) give
    the rows one process gives; the cluster's rows are written as its futures complete."""
    import distributed                  # the test extra installs it
    want = _reference(models)
    assert _rows(sweeps.run(models, axes=AXES, jobs=2).table) == want
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        out = tmp_path / "r.parquet"
        added = []
        real_add = sweeps.Results.add

        def add_then_kill_a_worker(self, rows):
            real_add(self, rows)
            added.append(rows)
            if len(added) == 1:                 # the worker running a run, if one is
                busy = {w.address for w in cluster.scheduler.workers.values() if w.processing}
                nanny = min(cluster.workers.values(),
                            key=lambda n: n.worker_address not in busy)
                os.kill(nanny.process.process.pid, signal.SIGKILL)
        monkeypatch.setattr(sweeps.Results, "add", add_then_kill_a_worker)
        outcome = sweeps.run(models, axes=AXES, output=out, scheduler=cluster.scheduler_address)
    assert outcome.computed == 12 and len(added) == 12
    assert _rows(outcome.table) == want == _rows(pq.read_table(out))


def test_a_pool_process_that_dies_is_an_error_row_and_the_sweep_goes_on(models, tmp_path,
                                                                        monkeypatch):
    crash = tmp_path / "crash.tflite"
    crash.write_bytes(tiny_model_bytes(7))
    real = sweeps.profile_rows

    def dies_on_crash(data, label, config):
        if label.endswith("crash.tflite"):
            os._exit(3)
        return real(data, label, config)
    monkeypatch.setattr(sweeps, "START_METHOD", "fork")    # the pool's processes see the patch
    monkeypatch.setattr(sweeps, "profile_rows", dies_on_crash)
    outcome = sweeps.run([models, crash], jobs=2)
    errors = {os.path.basename(model): error for model, _, error in outcome.errors()}
    assert set(errors) == {BAD, "crash.tflite"} and errors[BAD].startswith(f"{BAD}: corrupt")
    assert errors["crash.tflite"] == ("crash.tflite: the process profiling it died (killed, "
                                      "out of memory or crashed)")
    assert outcome.computed == 4
    assert {r["model"] for r in outcome.table.to_pylist() if r["row"] == "total"} == {
        str(models / "tiny0.tflite"), str(models / "tiny1.tflite")}


def test_latency_is_the_profile_total_and_remembered(monkeypatch):
    data = tiny_model_bytes(0)
    p = armsim.profile(data, core="cortex-m7", path="scalar", clock_mhz=200.0)
    got = armsim.latency(data, core="cortex-m7", path="scalar", clock_mhz=200)
    assert got == sweeps.Latency(p["total"]["latency_ms"], p["total"]["cycles"],
                                 p["total"]["instructions"], p["total"]["macs"],
                                 p["arena_bytes"], tuple(o["cycles"] for o in p["ops"]))
    profiled = []
    real = sweeps.profile
    monkeypatch.setattr(sweeps, "profile", lambda *a: profiled.append(a) or real(*a))
    g = tiny_graph(0)
    assert armsim.latency(g.build(), clock_mhz=200.0, core="cortex-m7", dsp="off") is got
    assert profiled == [], "the same bytes and configuration: remembered"
    other = armsim.latency(data, core="cortex-m4", path="scalar", clock_mhz=200)
    assert len(profiled) == 1 and other.cycles != got.cycles
    with pytest.raises(ValueError, match="unknown setting"):
        armsim.latency(data, cores="cortex-m7")
    with pytest.raises(ValueError, match="truncated"):
        armsim.latency(data[:6])


def test_models_from_lists_globs_directories_and_names(models, tmp_path):
    (tmp_path / "sub").mkdir()
    listing = tmp_path / "sub" / "models.txt"
    listing.write_text(f"# candidates\n{models / 'tiny0.tflite'}\n\n{models}/tiny*.tflite\n"
                       f"../copy.tflite  # relative to the list\nexample\n")
    (tmp_path / "copy.tflite").write_bytes(tiny_model_bytes(0))
    found = sweeps.find_models([listing, models])
    labels = [m.label for m in found]
    assert labels == [str(models / "tiny0.tflite"), str(models / "tiny1.tflite"),
                      os.path.join(str(listing.parent), "../copy.tflite"), "example.tflite",
                      str(models / BAD)]
    for m in found:
        m.hash()
    assert found[0].sha256 == found[2].sha256       # the copy: one run per configuration
    outcome = sweeps.run({"a": tiny_model_bytes(0), "b": tiny_model_bytes(0)}, jobs=1)
    assert (outcome.models, outcome.runs) == (2, 1)


def test_configurations_product_list_and_labels():
    configs = sweeps.configurations(["core=cortex-m7", {"board": "ek-ra6m4"}],
                                    {"path": ["simd", "scalar"]})
    assert [c.label() for c in configs] == [
        "core=cortex-m7,path=simd,toolchain=gcc,clock-mhz=100,flash-wait-states=0,"
        "rounding=double",
        "core=cortex-m7,path=scalar,toolchain=gcc,clock-mhz=100,flash-wait-states=0,"
        "rounding=double",
        "board=ek-ra6m4,core=cortex-m33,path=simd,toolchain=gcc,clock-mhz=200,"
        "rounding=double,caches=on",
        "board=ek-ra6m4,core=cortex-m33,path=scalar,toolchain=gcc,clock-mhz=200,"
        "rounding=double,caches=on"]
    for c in configs:
        assert sweeps.configuration(sweeps.parse_pairs(c.label())) == c
    # the defaults spelt out are the same configuration; dsp=off is the scalar path
    assert sweeps.configurations([{}, "core=cortex-m4,dsp=on", {"board": "none"}]) == \
        [sweeps.Config()]
    assert sweeps.configuration({"dsp": "off"}).path == "scalar"
    for settings, message in (({"path": "simd", "dsp": "off"}, "already simd"),
                              ({"arena": "dtcm"}, "give a board"),
                              ({"board": "ek-ra6m4", "arena": "dtcm"}, "dtcm"),
                              ({"path": "reference", "rounding": "single"}, "SINGLE_ROUNDING"),
                              ({"clock-mhz": "fast"}, "clock-mhz=fast: bad value"),
                              ({"clock-mhz": 0}, "must be positive")):
        with pytest.raises(sweeps.SweepError, match=message):
            sweeps.configuration(settings)
    with pytest.raises(sweeps.SweepError, match="both an axis"):
        sweeps.configurations(["core=cortex-m7"], {"core": ["cortex-m4"]})


def _assert_one_line_failure(result, *needles):
    assert result.exit_code != 0
    out = result.output.strip()
    assert "Traceback" not in out and len(out.splitlines()) == 1, out
    for needle in needles:
        assert needle in out, out


def test_bad_command_lines_are_one_line(models, tmp_path, monkeypatch):
    out = str(tmp_path / "r.parquet")
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "none.txt").write_text("# nothing\n")
    cases = [
        (["sweep", str(tmp_path / "*.tflite"), "-o", out], "no files match"),
        (["sweep", str(empty), "-o", out], "no .tflite files"),
        (["sweep", str(tmp_path / "none.txt"), "-o", out], "no models matched"),
        (["sweep", "nosuchmodel", "-o", out], "nosuchmodel: no such file"),
        (["sweep", str(models), "-o", out, "--set", "speed=1"], "speed: unknown setting"),
        (["sweep", str(models), "-o", out, "--config", "core=cortex-m4,foo=1"],
         "foo: unknown setting"),
        (["sweep", str(models), "-o", out, "--config", "cortex-m4"], "not KEY=VALUE"),
        (["sweep", str(models), "-o", out, "--set", "core"], "--set core: give KEY=VALUE"),
        (["sweep", str(models), "-o", out, "--core", "cortex-m99"], "core=cortex-m99"),
        (["sweep", str(models), "-o", out, "--board", "nope"], "unknown board"),
        (["sweep", str(models), "-o", out, "--set", "arena=dtcm"], "give a board"),
        (["sweep", str(models), "-o", str(tmp_path)], "is a directory"),
        (["sweep", str(models), "-o", out, "--configs", str(tmp_path / "absent.txt")],
         "absent.txt: cannot read"),
    ]
    for args, needle in cases:
        _assert_one_line_failure(_invoke(args), needle)
    assert not os.path.exists(out) and not os.path.exists(out + ".journal")
    not_results = tmp_path / "other.parquet"
    pq.write_table(sweeps._table([]).select(["model"]), not_results)
    _assert_one_line_failure(_invoke(["sweep", str(models), "-o", str(not_results)]),
                             "not an armsim sweep's results")
    monkeypatch.setitem(sys.modules, "distributed", None)           # not installed
    _assert_one_line_failure(_invoke(["sweep", str(models), "-o", out, "--scheduler",
                                      "tcp://127.0.0.1:1"]), "pip install 'armsim[cluster]'")


def test_the_progress_bar_shows_rate_and_eta(models, capsys):
    sweeps.run([models / "tiny0.tflite"], jobs=1, progress=True)
    err = capsys.readouterr().err
    assert "1/1" in err and "runs/s" in err and "ETA" in err
