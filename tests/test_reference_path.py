"""The `reference` path (ports of TFLM's reference_integer_ops kernels on the machine):
bit-exact on every shared case, traced run == counted run, counts that move with the work."""
import copy
import json
from pathlib import Path

import numpy as np
import pytest

from armsim.kernel import Tracer
from kernels.harness import run_case
from kernels.oracle import oracle

SHARED = Path(__file__).resolve().parents[2] / "shared"
if not SHARED.is_dir():
    SHARED = Path("/work/shared")
CASES = sorted((SHARED / "cmsis_nn_vectors").glob("*.json")) + \
    sorted((SHARED / "reference").glob("*.json"))


def _load(path):
    return json.loads(Path(path).read_text())


def test_cases_found():
    assert len(CASES) >= 60


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_reference_matches_output_ref(path):
    case = _load(path)
    result = run_case(case, "reference")
    ref = np.asarray(case["output_ref"], np.int8)
    np.testing.assert_array_equal(result.output, ref)
    np.testing.assert_array_equal(result.output, oracle(case))
    assert result.kernel_path and result.kernel_path[0].startswith("tflite::")
    assert result.instructions > 0


SMALL = ["basic__convolve", "depthwise_2", "fully_connected_w_zp", "fc_per_ch", "avgpooling_2",
         "maxpooling_1", "softmax__rows_0_1", "add__elements_0_85", "mul__elements_0_107"]


@pytest.mark.parametrize("name", SMALL)
def test_traced_equals_counted(name):
    case = _load(SHARED / "cmsis_nn_vectors" / f"{name}.json")
    fast = run_case(case, "reference")
    tracer = Tracer()
    traced = run_case(case, "reference", tracer=tracer)
    np.testing.assert_array_equal(fast.output, traced.output)
    assert fast.counts() == traced.counts()
    assert len(tracer.records) == fast.instructions


def test_counts_scale_with_work():
    """Doubling the output channels of a conv roughly doubles its instructions."""
    case = _load(SHARED / "reference" / "conv1x1_8x8x16_o32.json")
    small = copy.deepcopy(case)
    oc = 16
    small["filter_dims"]["n"] = oc
    small["output_dims"]["c"] = oc
    small["weights"] = case["weights"][:oc * 16]
    for k in ("bias", "output_mult", "output_shift"):
        small[k] = case[k][:oc]
    small["output_ref"] = list(np.asarray(case["output_ref"]).reshape(-1, 32)[:, :oc].ravel())
    a = run_case(small, "reference")
    b = run_case(case, "reference")
    np.testing.assert_array_equal(a.output, np.asarray(small["output_ref"], np.int8))
    assert 1.8 < b.instructions / a.instructions < 2.2


def test_softmax_counts_follow_the_data():
    """exp_on_negative_values' barrel shifter and the diff_min test are data dependent."""
    case = _load(SHARED / "cmsis_nn_vectors" / "softmax_invalid_diff_min.json")
    skipped = run_case(case, "reference")
    valid = copy.deepcopy(case)
    valid["diff_min"] = -(2**31) + 1
    computed = run_case(valid, "reference")
    assert computed.instructions > skipped.instructions
    np.testing.assert_array_equal(computed.output, oracle(valid))
