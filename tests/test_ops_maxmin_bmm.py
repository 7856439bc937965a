"""MAXIMUM, MINIMUM and BATCH_MATMUL as whole models: armsim.modelgen one-op models against
TFLite Micro's Python interpreter on all three paths, for every broadcast form the
CMSIS-NN kernels distinguish (equal shapes, a single value, batch / row / pixel / channel
broadcast, both operands broadcasting, lower ranks, constant operands) and every
BATCH_MATMUL option (adj_x, adj_y, batch broadcast, ranks 2-4, constant rhs).  (The
families' CMSIS-NN vectors and measured counts are run by the tests that read ../shared.)"""
import numpy as np
import pytest

from armsim import model, modelgen, profiler
from armsim.model import ModelError
from armsim.prepare import prepare
from model_helpers import tflm_outputs

PATHS = ("simd", "scalar", "reference")


def _run_all_paths(model_bytes, xs):
    want = tflm_outputs(model_bytes, xs)[0]
    m = model.parse(model_bytes)
    profiles = {}
    for path in PATHS:
        p = profiler.run(m, path, inputs=xs)
        np.testing.assert_array_equal(p.outputs[0], want, err_msg=path)
        profiles[path] = p
    return profiles


def _input(shape, seed):
    return np.random.default_rng(seed).integers(-128, 128, shape, dtype=np.int8)


BROADCASTS = [
    ((2, 3, 4, 5), (2, 3, 4, 5)),       # no broadcast
    ((2, 3, 4, 5), (1,)),               # a single value (second)
    ((1, 1, 1, 1), (2, 3, 4, 5)),       # a single value (first)
    ((2, 3, 4, 5), (1, 3, 4, 5)),       # batch
    ((2, 3, 4, 5), (2, 1, 4, 5)),       # rows
    ((2, 3, 4, 5), (2, 3, 1, 5)),       # pixels
    ((2, 3, 4, 1), (2, 3, 4, 5)),       # channels (first)
    ((2, 3, 4, 5), (2, 3, 4, 1)),       # channels (second)
    ((1, 3, 1, 5), (2, 1, 4, 5)),       # both, in different dims
    ((2, 1, 4, 1), (1, 3, 1, 5)),
    ((3, 4, 5), (5,)),                  # lower ranks
    ((4, 6), (1, 6)),
    ((6,), (6,)),
]


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("shapes", BROADCASTS, ids=lambda s: f"{s[0]}x{s[1]}".replace(" ", ""))
def test_max_min_match_tflm(op, shapes):
    g = modelgen.Graph(seed=3)
    a = g.input(shapes[0], scale=0.05, zero_point=2)
    b = g.input(shapes[1], scale=0.05, zero_point=2)
    g.output(getattr(g, op)(a, b))
    profiles = _run_all_paths(g.build(), [_input(shapes[0], 4), _input(shapes[1], 5)])
    assert profiles["simd"].ops[0].kernel.startswith(f"arm_{op}_s8")
    assert profiles["reference"].ops[0].kernel.startswith(
        "tflite::reference_ops::MaximumMinimumBroadcastSlow")


@pytest.mark.parametrize("first", [False, True], ids=["const_second", "const_first"])
def test_max_min_with_a_constant_operand(first):
    g = modelgen.Graph(seed=3)
    x = g.input((1, 4, 4, 3), scale=0.05, zero_point=-1)
    c = g.tensor((1, 1, 1, 3), "int8", 0.05, -1, data=np.array([-20, 0, 40], np.int8))
    y = g.maximum(c, x) if first else g.maximum(x, c)
    g.output(g.minimum(y, g.tensor((1,), "int8", 0.05, -1, data=np.array([30], np.int8))))
    _run_all_paths(g.build(), [_input((1, 4, 4, 3), 6)])


def test_max_min_errors_name_the_op():
    g = modelgen.Graph(seed=0)
    a = g.input((2, 3), scale=0.05, zero_point=0)
    b = g.input((3, 2), scale=0.05, zero_point=0)
    y = g.tensor((2, 3), "int8", 0.05, 0)
    g._op(modelgen._BO.MAXIMUM, [a, b], [y])
    g.output(y)
    with pytest.raises(ModelError, match=r"MAXIMUM.*do not broadcast"):
        prepare(model.parse(g.build()))
