"""The int8 fully connected, pooling, softmax and element-wise families on every shared case
(vectors and measurements, both CMSIS-NN paths): bit-exact through the default entry point
and every entry point the case names, a wrong entry point refused, and the traced run equal
to the counted one."""
import numpy as np
import pytest

from armsim.cpu.kernel import Tracer
from armsim.errors import CaseError
from armsim.kernels.families import oracle
from armsim.pipeline.build import Build
from armsim.pipeline.harness import run_case

from conftest import REFERENCE, VECTORS, load_case

PATHS = ("simd", "scalar")

# Entry points a case may name (`function`, `functions_validated`) and how to run them.
ENTRY_POINTS = {
    "fully_connected": ("arm_fully_connected_s8", "arm_fully_connected_per_channel_s8",
                        "arm_fully_connected_wrapper_s8"),
    "avgpool": ("arm_avgpool_s8",),
    "maxpool": ("arm_max_pool_s8",),
    "softmax": ("arm_softmax_s8", "arm_nn_softmax_common_s8"),
    "elementwise_add": ("arm_elementwise_add_s8",),
    "elementwise_mul": ("arm_elementwise_mul_s8",),
}


def _case_files(directory):
    return [path for path in sorted(directory.glob("*.json"))
            if load_case(path).get("family") in ENTRY_POINTS]


VECTOR_FILES = _case_files(VECTORS)
REFERENCE_FILES = _case_files(REFERENCE)
ALL_FILES = VECTOR_FILES + REFERENCE_FILES


def test_the_shared_directories_hold_cases_of_every_family():
    """Guards the globs: an empty or renamed directory must fail, not skip."""
    assert len(VECTOR_FILES) >= 16 and len(REFERENCE_FILES) >= 6
    families = {load_case(p)["family"] for p in ALL_FILES}
    assert families == set(ENTRY_POINTS)


def _expected(case):
    return np.asarray(case["output_ref"], np.int8).ravel()


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case_file", ALL_FILES, ids=lambda p: p.stem)
def test_default_entry_point_is_bit_exact(case_file, path):
    case = load_case(case_file)
    result = run_case(case, Build(path))
    np.testing.assert_array_equal(result.output, _expected(case))
    np.testing.assert_array_equal(result.output, oracle(case))
    per_channel = case.get("quant_params", {}).get("per_channel", False)
    entry = "arm_fully_connected_per_channel_s8" if per_channel else case["function"]
    assert result.kernel_path[0] == entry


def _named_functions(case):
    names = [case["function"], *case.get("functions_validated", [])]
    if case["family"] == "fully_connected":
        names.append("arm_fully_connected_wrapper_s8")
    if case["family"] == "softmax":
        names.append("arm_nn_softmax_common_s8")
    return sorted(set(names))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case_file", ALL_FILES, ids=lambda p: p.stem)
def test_every_named_entry_point_is_bit_exact(case_file, path):
    case = load_case(case_file)
    for function in _named_functions(case):
        assert function in ENTRY_POINTS[case["family"]], function
        result = run_case(case, Build(path), function=function)
        np.testing.assert_array_equal(result.output, _expected(case), err_msg=function)
        assert result.kernel_path[0] == function


def test_wrong_entry_points_are_errors():
    per_tensor = load_case(VECTORS / "fully_connected_mve_0.json")
    with pytest.raises(CaseError, match="per-tensor"):
        run_case(per_tensor, Build("simd"), function="arm_fully_connected_per_channel_s8")
    with pytest.raises(CaseError, match="not a max pooling"):
        run_case(load_case(VECTORS / "maxpooling.json"), Build("simd"), function="arm_avgpool_s8")
    with pytest.raises(CaseError, match="not a softmax"):
        run_case(load_case(VECTORS / "softmax__rows_0_1.json"), Build("simd"),
                 function="arm_softmax_s16")


TRACED_CASES = ("fully_connected_mve_1", "fully_connected_w_zp", "fc_per_ch",
                "avgpooling_3", "maxpooling_7", "softmax_invalid_diff_min",
                "add__elements_0_85", "mul__elements_0_107")


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", TRACED_CASES)
def test_traced_run_equals_counted_run(name, path):
    case = load_case(VECTORS / f"{name}.json")
    fast = run_case(case, Build(path))
    tracer = Tracer()
    traced = run_case(case, Build(path), tracer=tracer)
    np.testing.assert_array_equal(fast.output, traced.output)
    np.testing.assert_array_equal(fast.m.st, traced.m.st)
    assert len(tracer.records) == fast.instructions
