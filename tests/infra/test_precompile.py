"""Parallel compile before a cold run (armsim.infra.precompile): every unseen step is taken by
exactly one process, seen steps by none, and a run with helpers gives the serial run's
results."""
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from armsim.data import modelgen
from armsim.infra import precompile
from armsim.pipeline import model as model_mod
from armsim.pipeline import prepare as prepare_mod
from armsim.pipeline.build import Build
from armsim.operators.common import Step


def _steps(n):
    return [Step(i, "RESHAPE", "reshape", {"size": i}, {"input": 0}, 1, (1,),
                 reference_only=True) for i in range(n)]


def _taker(log):
    def run_step(step, values, build):
        time.sleep(0.2)                 # long enough that every process gets a step
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {step.index}\n")
    return run_step


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ARMSIM_CACHE_DIR", str(tmp_path / "cache"))
    precompile._cache._resolve.cache_clear()
    yield tmp_path
    precompile._cache._resolve.cache_clear()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="helpers are forked (POSIX only)")
def test_every_unseen_step_is_taken_once_by_parallel_processes(cache, monkeypatch):
    monkeypatch.setenv("ARMSIM_JOBS", "2")
    log = cache / "taken.txt"
    steps = _steps(6)
    build = Build("simd")
    seen = precompile.Seen(build)
    seen.add(seen.key(steps[5]))           # already run: not taken
    steps[4].host = True                                      # on the host: nothing compiles
    precompile.warm(None, steps, {}, build, _taker(log), seen)
    taken = [line.split() for line in log.read_text().splitlines()]
    assert sorted(int(i) for _, i in taken) == [0, 1, 2, 3]
    assert {pid for pid, _ in taken} >= {str(os.getpid())}
    assert len({pid for pid, _ in taken}) == 2


def test_one_job_or_one_unseen_step_forks_nothing(cache, monkeypatch):
    log = cache / "taken.txt"
    monkeypatch.setenv("ARMSIM_JOBS", "1")
    build = Build("simd")
    precompile.warm(None, _steps(3), {}, build, _taker(log), precompile.Seen(build))
    monkeypatch.setenv("ARMSIM_JOBS", "2")
    precompile.warm(None, _steps(1), {}, build, _taker(log), precompile.Seen(build))
    assert not log.exists()


def test_step_key_separates_builds_and_cases_not_data():
    a, b = _steps(2)
    assert precompile.step_key(a, Build("simd")) != precompile.step_key(a, Build("scalar"))
    assert precompile.step_key(a, Build("simd")) != precompile.step_key(b, Build("simd"))
    c = Step(0, "RESHAPE", "reshape", {"size": 0, "input": np.arange(3)}, {}, 1, (1,),
             reference_only=True)
    d = Step(0, "RESHAPE", "reshape", {"size": 0, "input": np.arange(5)}, {}, 1, (1,),
             reference_only=True)
    assert precompile.step_key(c, Build("simd")) == precompile.step_key(d, Build("simd"))
    per_channel = [Step(0, "CONV_2D", "conv", {"multiplier": list(range(k, k + n))}, {}, 1,
                        (1,)) for k, n in ((0, 16), (7, 16), (0, 17))]
    keys = [precompile.step_key(s, Build("simd")) for s in per_channel]
    assert keys[0] == keys[1] != keys[2]        # long lists: their length, not their values


def test_markers_belong_to_the_sources(cache, monkeypatch):
    build = Build("simd")
    key = precompile.step_key(_steps(1)[0], build)
    precompile.Seen(build).add(key)
    assert key in precompile.Seen(build)
    monkeypatch.setattr(precompile, "_sources_digest", lambda: "edited")
    assert key not in precompile.Seen(build)


def test_stand_ins_are_zeros_of_each_tensor_where_no_value_is_known():
    g = modelgen.Graph(seed=0)
    x = g.input((1, 4, 4, 2), name="x")
    g.output(g.reshape(x, (1, -1), name="flat"))
    model = model_mod.parse(g.build(), "flat.tflite")
    known = np.ones((1, 4, 4, 2), np.int8)
    values = precompile.StandIns(model, {0: known})
    assert values[0] is known
    out = model.operators[0].outputs[0]
    assert values[out].shape == (1, 32) and values[out].dtype == np.int8 and not values[out].any()


def test_a_cold_run_with_helpers_gives_the_serial_runs_results(tmp_path):
    """The example's first layers as a model, profiled cold with two processes in a fresh
    cache, then warm in one: the same outputs and counts, every step marked seen."""
    g = modelgen.Graph(seed=3)
    x = g.input((1, 6, 6, 2), scale=0.02, zero_point=-3, name="x")
    y = g.max_pool2d(x, name="pool")
    g.output(g.reshape(y, (1, -1), name="flat"))
    path = tmp_path / "two_ops.tflite"
    path.write_bytes(g.build())
    env = {**os.environ, "ARMSIM_CACHE_DIR": str(tmp_path / "cache")}
    runs = []
    for jobs in ("2", "1"):
        report = tmp_path / f"jobs{jobs}.json"
        subprocess.run([sys.executable, "-c", "from armsim.cli.main import run; run()",
                        "profile", str(path), "--path", "reference", "--json", str(report)],
                       env={**env, "ARMSIM_JOBS": jobs}, capture_output=True, check=True)
        runs.append(json.loads(report.read_text()))
    assert runs[0]["ops"] == runs[1]["ops"] and runs[0]["total"] == runs[1]["total"]
    model = model_mod.load(str(path))
    steps = prepare_mod.prepare(model)
    os.environ["ARMSIM_CACHE_DIR"], saved = str(tmp_path / "cache"), \
        os.environ.get("ARMSIM_CACHE_DIR")
    try:
        precompile._cache._resolve.cache_clear()
        seen = precompile.Seen(Build("reference"))
        assert all(seen.key(s) in seen for s in steps)
    finally:
        if saved is None:
            del os.environ["ARMSIM_CACHE_DIR"]
        else:
            os.environ["ARMSIM_CACHE_DIR"] = saved
        precompile._cache._resolve.cache_clear()
