"""PRELU (int8) on TFLM's counted reference kernel: models built with armsim.data.modelgen,
bit-exact with the TFLM interpreter on all three paths, each op simulated (counted), alpha
broadcasting where TFLM's kernel has it, and the refusals."""
import numpy as np
import pytest

from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline import model, prepare
from model_helpers import run_all_paths


def prelu_model():
    g = modelgen.Graph(seed=31)
    x = g.input((1, 4, 5, 6), scale=0.04, zero_point=-9, name="x")
    a_in = g.input((1, 4, 5, 6), scale=0.02, zero_point=7, name="alpha_in")
    per_channel = g.rng.integers(-128, 128, (6,))
    g.output(
        g.prelu(x, a_in, out_scale=0.05, out_zero_point=4),              # same shapes, both inputs
        g.prelu(x, per_channel, alpha_scale=0.008, alpha_zero_point=-3,
                out_scale=0.03, out_zero_point=-20),                     # alpha per channel [6]
        g.prelu(x, np.array([[[90]], [[-40]], [[0]], [[127]]]), alpha_scale=0.01,
                out_scale=0.02, out_zero_point=10),                      # alpha [4, 1, 1]
        g.prelu(x, np.array([[-128]]), alpha_scale=0.05, alpha_zero_point=20,
                out_scale=0.01, out_zero_point=-128),                    # one alpha, clamps
    )
    return g.build()


def test_prelu_bit_exact_vs_tflite_micro_on_every_path():
    m, _ = run_all_paths(prelu_model(), "prelu.tflite", seed=32)
    assert [s.op for s in prepare.prepare(m)] == ["PRELU"] * 4


def test_prelu_alpha_not_broadcasting_refused():
    g = modelgen.Graph()
    x = g.input((2, 3), scale=0.05)
    a = g.input((2, 3), scale=0.05)
    y = g.prelu(x, a)
    g.tensors[a].shape = (2, 2)
    g.output(y)
    with pytest.raises(ModelError, match=r"PRELU.*alpha shape \[2, 2\] does not broadcast"):
        prepare.prepare(model.parse(g.build(), "prelu_bad.tflite"))


def test_prelu_rank_5_refused():
    g = modelgen.Graph()
    x = g.input((1, 2, 1, 2, 3), scale=0.05)
    g.output(g.prelu(x, np.ones(3)))
    with pytest.raises(ModelError, match=r"PRELU.*input .* has rank 5: TFLM's "
                                         r"BroadcastPrelu4DSlow takes at most 4"):
        prepare.prepare(model.parse(g.build(), "prelu_rank5.tflite"))
