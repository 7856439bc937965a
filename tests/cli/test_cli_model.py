"""The whole-model CLI: bad inputs are one line, non-zero exit, no traceback, no file left."""
import json
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from armsim.cli.main import main
from model_helpers import shared_model, tiny_graph, tiny_model_bytes


def _invoke(args):
    return CliRunner().invoke(main, args)


def _assert_clean_failure(result, *needles):
    assert result.exit_code != 0
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    out = result.output.strip()
    assert "Traceback" not in out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    for n in needles:
        assert n in out, out
    return out


@pytest.fixture
def tiny(tmp_path):
    p = tmp_path / "tiny.tflite"
    p.write_bytes(tiny_model_bytes())
    return p


def _bad_models(tmp_path):
    data = tiny_model_bytes()
    cases = {"truncated": (data[:len(data) // 2], "truncated"),
             "text": (b"not a model at all\n" * 8, "not a TFLite flatbuffer")}
    g = tiny_graph()
    g.ops[0].inputs[0] = 555
    cases["index"] = (g.build(), "tensor index 555 out of range")
    g = tiny_graph()
    for t in g.tensors:
        if t.dtype == "int8" and t.data is None:
            t.dtype = "float32"
            t.scale = t.zero_point = None
    # float activations with int8 weights: a hybrid model, which TFLM refuses in Prepare
    cases["float"] = (g.build(), "Hybrid models are not supported")
    g = tiny_graph()
    g.ops[1].code = 32
    cases["custom"] = (g.build(), "custom op")
    g = tiny_graph()
    g.ops[1].code = 250
    cases["unknown"] = (g.build(), "unknown builtin op code 250")
    return cases


@pytest.mark.parametrize("command", ["profile", "arena", "compare"])
def test_bad_models_fail_cleanly(tmp_path, command):
    for label, (data, needle) in _bad_models(tmp_path).items():
        p = tmp_path / f"{label}.tflite"
        p.write_bytes(data)
        out_json = tmp_path / f"{label}.json"
        result = _invoke([command, str(p), "--json", str(out_json)])
        _assert_clean_failure(result, needle, f"{label}.tflite")
        assert not out_json.exists()
        assert not [f for f in tmp_path.iterdir() if f.name.startswith(f".{label}.json")]


def test_missing_model_file(tmp_path):
    _assert_clean_failure(_invoke(["profile", str(tmp_path / "none.tflite")]), "no such file")


def test_unknown_core(tiny, tmp_path):
    out = tmp_path / "p.json"
    r = _invoke(["profile", str(tiny), "--core", "cortex-m99", "--json", str(out)])
    _assert_clean_failure(r, "unknown core", "cortex-m99")
    assert not out.exists()


def test_wrong_input_shape_and_dtype(tiny, tmp_path):
    out = tmp_path / "y.npy"
    for name, arr, needle in (("shape", np.zeros((1, 5, 6, 2), np.int8), "shape [1, 5, 6, 2]"),
                              ("dtype", np.zeros((1, 6, 6, 2), np.float32), "dtype float32")):
        x = tmp_path / f"{name}.npy"
        np.save(x, arr)
        r = _invoke(["run", str(tiny), "--input", str(x), "--output", str(out)])
        _assert_clean_failure(r, needle, "[1, 6, 6, 2]")
        assert not out.exists()
    r = _invoke(["run", str(tiny), "--input", str(tmp_path / "absent.npy"), "--output", str(out)])
    _assert_clean_failure(r, "no such file")
    assert not out.exists()


def test_run_profile_and_json(tiny, tmp_path):
    from model_helpers import tflm_reference
    x = np.random.default_rng(3).integers(-128, 128, (1, 6, 6, 2), dtype=np.int8)
    xf, yf, jf = tmp_path / "x.npy", tmp_path / "y.npy", tmp_path / "p.json"
    np.save(xf, x)
    r = _invoke(["run", str(tiny), "--input", str(xf), "--output", str(yf), "--path", "scalar"])
    assert r.exit_code == 0, r.output
    assert np.array_equal(np.load(yf), tflm_reference(tiny.read_bytes(), x))
    r = _invoke(["profile", str(tiny), "--input", str(xf), "--json", str(jf), "--core",
                 "cortex-m33", "--clock-mhz", "50"])
    assert r.exit_code == 0, r.output
    data = json.loads(jf.read_text())
    assert set(data) >= {"model", "core", "path", "toolchain", "clock_mhz", "ops", "total",
                         "arena_bytes"}
    assert data["core"] == "cortex-m33" and data["path"] == "simd"
    assert [o["op"] for o in data["ops"]] == ["CONV_2D", "RESHAPE", "FULLY_CONNECTED"]
    ops = data["ops"]
    assert ops[1]["reference"] is True and ops[0]["reference"] is False
    for o in ops:
        assert o["instructions"] == sum(o["mnemonics"].values()) > 0
        assert o["simulated"] is True
    tot = data["total"]
    assert tot["cycles"] == sum(o["cycles"] for o in ops)
    assert tot["latency_ms"] == pytest.approx(tot["cycles"] / 50e3)
    assert tot["macs"] == 6 * 6 * 4 * 9 * 2 + 144 * 5
    assert "CONV_2D" in r.output and "total" in r.output
    hf, cj = tmp_path / "r.html", tmp_path / "c.json"
    r = _invoke(["compare", str(tiny), "--input", str(xf), "--json", str(cj), "--html", str(hf)])
    assert r.exit_code == 0, r.output
    assert "identical on all three paths" in r.output
    assert r.stderr == "", "no progress-bar residue when stderr is not a terminal"
    both = json.loads(cj.read_text())
    assert set(both) == {"simd", "scalar", "reference"}
    assert both["simd"]["ops"][0]["cycles"] < both["reference"]["ops"][0]["cycles"]
    assert hf.read_text().lstrip().startswith("<!DOCTYPE html>")


def test_arena_command(tmp_path):
    jf = tmp_path / "a.json"
    r = _invoke(["arena", str(shared_model("ad")), "--json", str(jf)])
    assert r.exit_code == 0, r.output
    plan = json.loads(jf.read_text())
    assert plan["total_bytes"] == plan["head_bytes"] + plan["tail_bytes"]
    assert all(b["offset"] % 16 == 0 for b in plan["buffers"])


# --- writing outputs (armsim.infra.output): what the user gave is respected -----------------

@pytest.fixture
def tiny_input(tmp_path):
    x = tmp_path / "x.npy"
    np.save(x, np.zeros((1, 6, 6, 2), np.int8))
    return x


def _run_to(tiny, tiny_input, target):
    return _invoke(["run", str(tiny), "--input", str(tiny_input), "--output", str(target),
                    "--path", "simd"])


def test_output_written_through_a_symlink(tiny, tiny_input, tmp_path):
    real = tmp_path / "real.npy"
    real.write_bytes(b"old")
    link = tmp_path / "link.npy"
    link.symlink_to(real)
    r = _run_to(tiny, tiny_input, link)
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and np.load(real).shape == (1, 5)


def test_output_gets_the_umask_and_keeps_an_existing_mode(tiny, tiny_input, tmp_path):
    import os
    old = os.umask(0o027)
    try:
        new = tmp_path / "new.npy"
        assert _run_to(tiny, tiny_input, new).exit_code == 0
        assert new.stat().st_mode & 0o777 == 0o640          # 0666 & ~umask, not mkstemp's 0600
        kept = tmp_path / "kept.npy"
        kept.write_bytes(b"")
        kept.chmod(0o604)
        assert _run_to(tiny, tiny_input, kept).exit_code == 0
        assert kept.stat().st_mode & 0o777 == 0o604
    finally:
        os.umask(old)


@pytest.mark.parametrize("special", ["/dev/null", "/dev/full", "fifo", "directory"])
def test_special_files_and_directories_are_refused(tiny, tiny_input, tmp_path, special):
    """As root, the devices are private nodes made in tmp_path: code that replaces a device
    by a regular file (this test's failure) must not do it to the machine's /dev/null.  (It
    did: a run of this test on the code before d71692f left /dev/null and /dev/full regular
    files.)  Without root, /dev cannot be written and the real devices are safe to use."""
    import os
    import stat
    target = special
    if special.startswith("/dev/") and os.geteuid() == 0:
        device = os.stat(special).st_rdev
        assert stat.S_ISCHR(os.stat(special).st_mode), f"{special} is no longer a device"
        target = tmp_path / os.path.basename(special)
        os.mknod(target, stat.S_IFCHR | 0o666, device)
    elif special == "fifo":
        target = tmp_path / "fifo"
        os.mkfifo(target)
    elif special == "directory":
        target = tmp_path / "adir"
        target.mkdir()
    before = os.stat(target).st_mode
    for args in (["run", str(tiny), "--input", str(tiny_input), "--output", str(target)],
                 ["arena", str(tiny), "--json", str(target)]):
        r = _invoke(args)
        _assert_clean_failure(r, str(target))
        assert stat.S_IFMT(os.stat(target).st_mode) == stat.S_IFMT(before)


def test_unwritable_outputs_are_one_line(tiny, tiny_input, tmp_path, monkeypatch):
    import errno
    import os
    long_name = tmp_path / ("n" * 250 + ".npy")        # its temporary sibling must still fit
    r = _run_to(tiny, tiny_input, long_name)
    assert r.exit_code == 0, r.output
    assert long_name.exists()
    _assert_clean_failure(_run_to(tiny, tiny_input, tmp_path / ("n" * 300)), "cannot write",
                          "File name too long")
    _assert_clean_failure(_run_to(tiny, tiny_input, "/proc/version"), "/proc/version",
                          "cannot write")
    _assert_clean_failure(_run_to(tiny, tiny_input, tmp_path / "no" / "dir.npy"),
                          "does not exist")
    real_open = os.open

    def read_only_fs(path, flags, *a, **k):     # a read-only mount, without mounting one
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)
        return real_open(path, flags, *a, **k)
    monkeypatch.setattr(os, "open", read_only_fs)
    target = tmp_path / "ro.npy"
    _assert_clean_failure(_run_to(tiny, tiny_input, target), str(target),
                          "Read-only file system")
    assert not target.exists() and not [f for f in tmp_path.iterdir() if ".tmp" in f.name]


def test_cli_long_or_nul_model_names_are_one_line():
    for name in ("x" * 300, "a" * 300 + ".tflite", "nul\x00x"):
        r = _invoke(["arena", name])
        assert r.exit_code == 1 and isinstance(r.exception, SystemExit), r.exception
        assert len(r.output.strip().splitlines()) == 1 and "\x00" not in r.output


@pytest.mark.parametrize("args, code, stream", [
    (["--version"], 0, "stdout"),
    (["profile", "no_such_model"], 1, "stderr"),
    (["profile", "--no-such-option"], 2, "stderr"),
])
def test_console_script_exit_status_and_output(args, code, stream):
    """The console script (`run`) leaves with os._exit after flushing: click's exit status
    and every line written reach the caller."""
    done = subprocess.run([sys.executable, "-c", "from armsim.cli.main import run; run()",
                           *args], capture_output=True, text=True)
    assert done.returncode == code
    text = getattr(done, stream)
    assert text.strip() and "Traceback" not in done.stderr
    if code == 1:
        assert text.count("\n") == 1 and "no_such_model" in text


class _Step:
    def __init__(self, index):
        self.index, self.op = index, "CONV_2D"


def _late_progress(monkeypatch, delay):
    """A `_LateProgress` writing to a string as if stderr were a terminal."""
    import io
    from rich.console import Console
    from armsim.cli import common
    out = io.StringIO()
    monkeypatch.setattr(common, "console",
                        lambda stderr=False: Console(file=out, force_terminal=True, width=80))
    monkeypatch.setattr(common._LateProgress, "DELAY", delay)
    return common._LateProgress("simd", 3), out


def test_a_quick_run_shows_no_progress_bar(monkeypatch):
    progress, out = _late_progress(monkeypatch, 60.0)
    with progress:
        for i in range(3):
            progress.tick(_Step(i))
    assert progress.bar is None and out.getvalue() == ""


def test_a_slow_run_shows_the_bar_with_the_ops_done_so_far(monkeypatch):
    import time
    progress, out = _late_progress(monkeypatch, 0.0)
    with progress:
        progress.tick(_Step(0))
        for _ in range(200):                    # the timer thread starts the bar
            if progress.bar is not None:
                break
            time.sleep(0.01)
        assert progress.bar is not None
        assert progress.bar.tasks[0].completed >= 1 and progress.bar.tasks[0].total == 3
        progress.tick(_Step(1))
        assert progress.bar.tasks[0].completed == 2
    assert "simd" in out.getvalue() and not progress.bar.live.is_started
