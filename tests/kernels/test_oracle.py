"""The numpy oracle reproduces output_ref of every shared vector and measured case."""
import copy
import json

import numpy as np
import pytest

from armsim.kernels.families import oracle
from armsim.kernels.oracle import requantize, rdbpot, srdhm

from conftest import REFERENCE, SHARED, VECTORS, expected_output, shared_cases

CASES = shared_cases(VECTORS) + shared_cases(REFERENCE)


def test_cases_found():
    assert len(CASES) >= 60


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_oracle_matches_output_ref(path):
    case = json.loads(path.read_text())
    out = oracle(case)
    ref = expected_output(case)
    assert out.dtype == ref.dtype and out.shape == ref.shape
    np.testing.assert_array_equal(out, ref)


def _load(name):
    return json.loads((SHARED / "cmsis_nn_vectors" / f"{name}.json").read_text())


@pytest.mark.parametrize("name,mutate", [
    ("basic__convolve", lambda c: c["weights"].__setitem__(0, c["weights"][0] + 1)),
    ("conv_2", lambda c: c["conv_params"].__setitem__("input_offset", c["conv_params"]["input_offset"] - 1)),
    ("depthwise_2", lambda c: c["output_shift"].__setitem__(0, c["output_shift"][0] - 1)),
    ("fully_connected_w_zp", lambda c: c["fc_params"].__setitem__("filter_offset", 0)),
    ("avgpooling_2", lambda c: c["pool_params"]["padding"].__setitem__("w", 0)),
    ("maxpooling_1", lambda c: c["pool_params"]["activation"].__setitem__("max", 0)),
    ("softmax__rows_0_1", lambda c: c.__setitem__("mult", c["mult"] // 2)),
    ("add__elements_0_85", lambda c: c.__setitem__("out_shift", c["out_shift"] + 1)),
    ("mul__elements_0_107", lambda c: c.__setitem__("input_1_offset", 0)),
])
def test_oracle_is_sensitive(name, mutate):
    """A wrong parameter changes the oracle's output: the comparison can fail."""
    case = copy.deepcopy(_load(name))
    mutate(case)
    assert not np.array_equal(oracle(case), np.asarray(case["output_ref"], np.int8))


def test_requantize_pieces():
    # rounding half away from zero
    assert list(rdbpot(np.array([5, -5, 6, -6, 7, -7]), 1)) == [3, -3, 3, -3, 4, -4]
    assert list(rdbpot(np.array([12345]), 0)) == [12345]
    # SRDHM saturates only INT32_MIN * INT32_MIN
    assert srdhm(-(2**31), -(2**31)) == 2**31 - 1
    assert srdhm(2**30, 2**30) == 2**29
    assert srdhm(-3, 2**30) == -1          # -1.5 rounds away from zero
    assert srdhm(3, 2**30) == 2            # 1.5 rounds away from zero
    # a positive shift is a left shift before the multiply
    assert requantize(100, 2**30, 2) == 200
    assert requantize(100, 2**30, -2) == 13   # 50 / 4 = 12.5 -> 13
