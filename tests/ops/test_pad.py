"""PAD and PADV2 as whole models: armsim.data.modelgen one-op models against TFLite Micro's
Python interpreter on all three paths for paddings on every dimension; the errors Prepare
reports; seeded property tests of the family against its numpy oracle.  (The family's
CMSIS-NN vectors and measured counts are run by the tests that read ../shared.)"""
import numpy as np
import pytest
from hypothesis import given, seed
from hypothesis import strategies as st

from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline import model
from armsim.pipeline.prepare import prepare
from conftest import PROPERTY, all_paths_equal_oracle
from model_helpers import random_int8, run_on_every_path


PADDINGS = [
    ((2, 3, 4, 5), [[0, 0], [1, 1], [1, 1], [0, 0]]),     # image style (the row-copy path)
    ((2, 3, 4, 5), [[1, 0], [0, 2], [3, 0], [1, 2]]),     # every dim, channels padded
    ((1, 2, 2, 3), [[0, 0], [0, 0], [0, 0], [2, 1]]),     # channels only
    ((3, 4, 5), [[1, 1], [0, 2], [1, 0]]),                # rank 3
    ((4, 6), [[2, 0], [1, 3]]),                           # rank 2
    ((5,), [[3, 2]]),                                     # rank 1
    ((1, 2, 3, 4), [[0, 0], [0, 0], [0, 0], [0, 0]]),     # nothing to pad
]


@pytest.mark.parametrize("padv2", [False, True], ids=["PAD", "PADV2"])
@pytest.mark.parametrize("shape,paddings", PADDINGS, ids=[f"p{k}" for k in range(len(PADDINGS))])
def test_pad_matches_tflm(shape, paddings, padv2):
    g = modelgen.Graph(seed=1)
    x = g.input(shape, scale=0.03, zero_point=-7)
    g.output(g.pad_v2(x, paddings, 93) if padv2 else g.pad(x, paddings))
    profiles = run_on_every_path(g.build(), [random_int8(shape, seed=2)])
    assert profiles["simd"].ops[0].kernel.startswith("arm_pad_s8")
    assert profiles["scalar"].ops[0].kernel.startswith("arm_pad_s8")
    assert profiles["reference"].ops[0].kernel.startswith("tflite::reference_ops::PadImpl")


def test_pad_errors_name_the_op():
    g = modelgen.Graph(seed=0)
    x = g.input((1, 2, 2, 2, 2), scale=0.02, zero_point=0)
    g.output(g.pad(x, [[0, 0]] * 4 + [[1, 1]]))
    with pytest.raises(ModelError, match=r"PAD.*rank 5"):
        prepare(model.parse(g.build()))
    g = modelgen.Graph(seed=0)
    x = g.input((2, 3), scale=0.02, zero_point=0)
    y = g.pad_v2(x, [[1, 0], [0, 1]], 5)
    g.tensors[g.ops[-1].inputs[2]].zero_point = 3             # not the output's zero point
    g.output(y)
    with pytest.raises(ModelError, match="constant_values .* scale and zero point"):
        prepare(model.parse(g.build()))


@st.composite
def pad_cases(draw):
    dims = {k: draw(st.integers(1, 4)) for k in "nhwc"}
    pre = {k: draw(st.integers(0, 2)) for k in "nhwc"}
    post = {k: draw(st.integers(0, 2)) for k in "nhwc"}
    size = int(np.prod(list(dims.values())))
    return {"family": "pad", "case": "property", "input_dims": dims, "pre_pad": pre,
            "post_pad": post, "pad_value": draw(st.integers(-128, 127)),
            "input": draw(st.lists(st.integers(-128, 127), min_size=size, max_size=size))}


@seed(92)
@PROPERTY
@given(pad_cases())
def test_property_pad(case):
    all_paths_equal_oracle(case)
