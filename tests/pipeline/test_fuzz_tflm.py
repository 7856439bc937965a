"""Differential fuzzing against TFLite Micro (issue 11): seeded, structure-aware mutants of the
shared MLPerf Tiny models -- shapes, types, quantization, operator codes, buffers, options,
operator inputs, plus byte flips -- each run by `armsim run` (reference path) and by TFLM's
Python interpreter, each in a forked child (a crash or a hang is an outcome).  No exception
may escape as a traceback, armsim may neither crash nor hang, accept / reject must agree with
TFLM except for the documented int8-spec refusals (`tflm_diff.DOCUMENTED_REFUSALS`), and
outputs must be equal where both run.  The long campaign with the same machinery is
benchmarks/fuzz_campaign.py."""
import collections

import numpy as np
import pytest

import tflm_diff as td
from armsim.pipeline import model, profiler
from model_helpers import shared_model

# the two small models (ad: 10 FULLY_CONNECTED; kws: CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D,
# RESHAPE, FULLY_CONNECTED, SOFTMAX) keep a few hundred mutants within a couple of minutes
MODELS = ("ad", "kws")
MUTANTS_PER_MODEL = 150
SEED = 20261123


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("fuzz")
    rng = np.random.default_rng(SEED)
    found = []
    for name in MODELS:
        data = shared_model(name).read_bytes()
        base = profiler.random_inputs(model.parse(data, f"{name}.tflite"))
        assert td.warm_up(data, base, workdir).kind == "ok"
        for k in range(MUTANTS_PER_MODEL):
            kind, what, mutant = td.mutant(data, rng)
            inputs = td.inputs_for(mutant, base, k)
            found.append((name, k, kind, what, td.compare(mutant, inputs, workdir)))
    return found


def test_no_traceback_and_no_disagreement_with_tflm(verdicts):
    failures = [f"{name} #{k} {kind} ({what}): {v.status}: {v.detail[:400]}"
                for name, k, kind, what, v in verdicts if v.status.startswith("FAIL")]
    assert not failures, "\n".join(failures)


def test_the_campaign_exercises_every_outcome(verdicts):
    """A fuzz run that only ever sees refusals (or only successes) proves nothing."""
    statuses = collections.Counter(v.status for *_, v in verdicts)
    kinds = collections.Counter(kind for _, _, kind, _, _ in verdicts)
    assert statuses["agree-ok"] >= 40 and statuses["agree-refused"] >= 20, statuses
    assert statuses["documented-refusal"] > 0, statuses
    assert set(kinds) == set(td.STRUCTURED) | {"bytes"}, kinds


def test_documented_refusals_name_a_tensor_or_op_and_a_rule(verdicts):
    for name, k, kind, what, v in verdicts:
        if v.status == "documented-refusal":
            assert ("tensor " in v.detail or " op " in v.detail) and ".tflite: " in v.detail, \
                (name, k, what, v.detail)


def test_the_harness_runs_both_sides(tmp_path):
    data = shared_model("ad").read_bytes()
    x = profiler.random_inputs(model.parse(data, "ad.tflite"))
    assert td.compare(data, x, tmp_path).status == "agree-ok"
    assert td.tflm_run(b"TFL3 not a model", x).kind in ("refused", "crashed")
    assert td.armsim_run(b"not a model", x, tmp_path).kind == "refused"


def test_the_judge_flags_each_kind_of_disagreement(tmp_path, monkeypatch):
    ok, other = td.Outcome("ok", [np.zeros(3, np.int8)]), td.Outcome("ok", [np.ones(3, np.int8)])
    new_rule = td.Outcome("refused", message="Error: m.tflite: op 0 ADD: a rule nobody wrote")
    spec = td.Outcome("refused", message="Error: m.tflite: tensor 0 'x': zero point 300 "
                                         "outside the int8 range [-128, 127]")
    cases = [(ok, ok, "agree-ok"), (ok, other, "FAIL:outputs-differ"),
             (ok, td.Outcome("refused", message="TFLM says no"),
              "FAIL:armsim-accepts-tflm-refuses"),
             (new_rule, ok, "FAIL:armsim-refuses-tflm-runs"), (spec, ok, "documented-refusal"),
             (td.Outcome("traceback", message="Traceback"), ok, "FAIL:armsim-traceback"),
             (td.Outcome("multiline", message="a\nb"), ok, "FAIL:armsim-multiline"),
             (td.Outcome("crashed", message="signal 11"), ok, "FAIL:armsim-crashed"),
             (td.Outcome("hung"), ok, "FAIL:armsim-hung"),
             (new_rule, td.Outcome("crashed"), "tflm-crashed")]
    for ours, theirs, want in cases:
        monkeypatch.setattr(td, "armsim_run", lambda *a, o=ours, **k: o)
        monkeypatch.setattr(td, "tflm_run", lambda *a, t=theirs, **k: t)
        assert td.compare(b"", [], tmp_path).status == want, (ours, theirs)
