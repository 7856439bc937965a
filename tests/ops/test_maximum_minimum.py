"""MAXIMUM and MINIMUM as whole models: armsim.data.modelgen one-op models against TFLite
Micro's Python interpreter on all three paths, for every broadcast form the CMSIS-NN kernels
distinguish (equal shapes, a single value, batch / row / pixel / channel broadcast, both
operands broadcasting, lower ranks, constant operands); seeded property tests of the
families against their numpy oracles.  (The families' CMSIS-NN vectors and measured counts
are run by the tests that read ../shared.)"""
import numpy as np
import pytest
from hypothesis import assume, given, seed
from hypothesis import strategies as st

from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.kernels.families import oracle
from armsim.kernels.families.maximum import row_scalar_overrun
from armsim.pipeline import model
from armsim.pipeline.build import Build
from armsim.pipeline.harness import run_case
from armsim.pipeline.prepare import prepare
from conftest import PROPERTY, all_paths_equal_oracle
from model_helpers import random_int8, run_on_every_path


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
    profiles = run_on_every_path(g.build(), [random_int8(shapes[0], 4), random_int8(shapes[1], 5)])
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
    run_on_every_path(g.build(), [random_int8((1, 4, 4, 3), 6)])


def test_max_min_errors_name_the_op():
    g = modelgen.Graph(seed=0)
    a = g.input((2, 3), scale=0.05, zero_point=0)
    b = g.input((3, 2), scale=0.05, zero_point=0)
    y = g.tensor((2, 3), "int8", 0.05, 0)
    g._op(modelgen._BO.MAXIMUM, [a, b], [y])
    g.output(y)
    with pytest.raises(ModelError, match=r"MAXIMUM.*do not broadcast"):
        prepare(model.parse(g.build()))


i8 = st.integers(-128, 127)


@st.composite
def max_min_cases(draw, family):
    out = [draw(st.integers(1, 4)) for _ in range(4)]
    s1 = [d if draw(st.booleans()) else 1 for d in out]
    s2 = [d if draw(st.booleans()) else 1 for d in out]
    out = [max(a, b) for a, b in zip(s1, s2)]              # what the operands broadcast to
    n1, n2 = int(np.prod(s1)), int(np.prod(s2))
    return {"family": family, "case": "property",
            "input_1_dims": dict(zip("nhwc", s1)), "input_2_dims": dict(zip("nhwc", s2)),
            "output_dims": dict(zip("nhwc", out)),
            "input": draw(st.lists(i8, min_size=n1, max_size=n1)),
            "input2": draw(st.lists(i8, min_size=n2, max_size=n2))}


@seed(93)
@PROPERTY
@given(max_min_cases("maximum"))
def test_property_maximum(case):
    assume(not row_scalar_overrun(case))          # the kernel's own bug, tested below
    all_paths_equal_oracle(case)


@seed(94)
@PROPERTY
@given(max_min_cases("minimum"))
def test_property_minimum(case):
    assume(not row_scalar_overrun(case))
    all_paths_equal_oracle(case)


@pytest.mark.parametrize("family", ["maximum", "minimum"])
def test_row_scalar_branch_overruns_in_cmsis_nn(family):
    """arm_maximum_s8 / arm_minimum_s8 step a one-element row's pointer twice per row (see
    families.maximum.row_scalar_overrun): for [1, 2, 1, 1] against [1, 1, 2, 1] the second
    output row takes the byte after input 1.  The port does the same; the reference path
    (TFLM's MaximumMinimumBroadcastSlow) and the oracle do not."""
    from armsim.cpu import machine
    fn = np.maximum if family == "maximum" else np.minimum
    case = {"family": family, "case": "overrun",
            "input_1_dims": {"n": 1, "h": 2, "w": 1, "c": 1},
            "input_2_dims": {"n": 1, "h": 1, "w": 2, "c": 1},
            "output_dims": {"n": 1, "h": 2, "w": 2, "c": 1},
            "input": [5, 7] if family == "maximum" else [-5, -7], "input2": [-3, 3]}
    assert row_scalar_overrun(case)
    want = oracle(case)
    np.testing.assert_array_equal(run_case(case, Build("reference")).output, want)
    for path in ("simd", "scalar"):
        result = run_case(case, Build(path))
        after = int(machine.read(result.m, result.addr["input"] + 2, 1, np.int8)[0])
        np.testing.assert_array_equal(result.output[:2], want[:2])
        np.testing.assert_array_equal(result.output[2:], fn(after, [-3, 3]))
        assert not np.array_equal(result.output, want), path
