"""The shared MLPerf Tiny models: bit-exact with TFLite Micro's outputs for every input on
every path; instructions per op within 10% and per model within 5% of what the firmware
executed (measured.json); arena within 5% of TFLM's arena_used_bytes."""
import json
from functools import lru_cache

import numpy as np
import pytest

from armsim.pipeline import arena, model, prepare, profiler
from armsim.pipeline.build import Build
from model_helpers import SHARED, shared_model

PATHS = ("simd", "scalar", "reference")


@lru_cache(maxsize=None)
def _loaded(name):
    m = model.load(str(shared_model(name)))
    return m, prepare.prepare(m)


@lru_cache(maxsize=None)
def _measured(name):
    return json.loads((shared_model(name).parent / "measured.json").read_text())["paths"]


@lru_cache(maxsize=None)
def _run(name, path, k):
    m, steps = _loaded(name)
    x = np.load(shared_model(name).parent / f"input_{k}.npy")
    return profiler.run(m, Build(path), inputs=[x], steps=steps)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", SHARED)
def test_bit_exact_on_every_input(name, path):
    for k in range(3):
        want = np.load(shared_model(name).parent / f"expected_{k}.npy")
        got = _run(name, path, k).outputs[0]
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want), (name, path, k)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", SHARED)
def test_instruction_counts_match_measured(name, path):
    prof = _run(name, path, 0)
    ops = _measured(name)[path]["ops"]
    assert [o.op for o in prof.ops] == [o["op"] for o in ops]
    off = [(o.index, o.op, o.instructions, q["instructions"])
           for o, q in zip(prof.ops, ops)
           if abs(o.instructions / q["instructions"] - 1) > 0.10]
    total = sum(q["instructions"] for q in ops)
    assert abs(prof.instructions / total - 1) <= 0.05, (prof.instructions, total)
    assert not off, f"ops beyond 10% of measured (index, op, armsim, measured): {off}"


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", SHARED)
def test_arena_matches_arena_used_bytes(name, path):
    m, steps = _loaded(name)
    plan = arena.plan(m, steps, Build(path))
    want = _measured(name)[path]["arena_used_bytes"]
    assert abs(plan.total / want - 1) <= 0.05, (plan.head, plan.tail, want)
    # the plan is valid: buffers alive at the same time never overlap
    for a in plan.buffers:
        for b in plan.buffers:
            if a is b or a.last < b.first or b.last < a.first:
                continue
            assert a.offset + a.aligned <= b.offset or b.offset + b.aligned <= a.offset
