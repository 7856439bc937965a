"""SQUARED_DIFFERENCE (int8) on TFLM's counted reference kernels: a model built with
armsim.data.modelgen, bit-exact with the TFLM interpreter on all three paths, each op simulated
(counted), broadcasting as TFLM's kernel does, and the refusals."""
import numpy as np
import pytest

from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline import model, prepare
from model_helpers import run_all_paths, tflm_outputs


def squared_difference_model():
    g = modelgen.Graph(seed=41)
    a = g.input((2, 3, 4, 5), scale=0.03, zero_point=-11, name="a")
    b = g.input((2, 3, 4, 5), scale=0.05, zero_point=6, name="b")
    row = g.input((5,), scale=0.04, zero_point=0, name="row")
    col = g.input((3, 1, 1), scale=0.02, zero_point=-128, name="col")
    const = g.tensor((1, 4, 1), "int8", 0.06, 9, data=np.array([[[-100], [0], [57], [127]]]),
                     name="const")
    sd = g.squared_difference
    g.output(sd(a, b, out_scale=0.05, out_zero_point=-120),            # equal shapes
             sd(b, a, out_scale=0.002, out_zero_point=-128),           # mostly clamped
             sd(a, row, out_scale=0.01, out_zero_point=-100),          # [5] broadcast
             sd(col, a, out_scale=0.03, out_zero_point=3),             # [3, 1, 1] broadcast
             sd(a, const),                                             # constant [1, 4, 1]
             sd(row, col, out_scale=0.004, out_zero_point=-64))        # both broadcast
    return g.build()


def test_squared_difference_bit_exact_vs_tflite_micro_on_every_path():
    m, _ = run_all_paths(squared_difference_model(), "squared_difference.tflite", seed=42)
    assert [s.op for s in prepare.prepare(m)] == ["SQUARED_DIFFERENCE"] * 6


def test_squared_difference_mixed_types_refused_as_tflm_does():
    g = modelgen.Graph()
    a = g.input((2, 3), scale=0.05)
    b = g.input((2, 3), scale=0.05, dtype="int16")
    g.output(g.squared_difference(a, b, out_scale=0.05))
    data = g.build()
    with pytest.raises(ModelError, match=r"SQUARED_DIFFERENCE.*input1 .* is INT8, input2 .* "
                                         r"INT16 \(TFLM requires equal types\)"):
        prepare.prepare(model.parse(data, "sd_types.tflite"))
    with pytest.raises(RuntimeError):
        tflm_outputs(data, [np.zeros((2, 3), np.int8), np.zeros((2, 3), np.int16)])
