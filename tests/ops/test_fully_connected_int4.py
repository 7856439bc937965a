"""FULLY_CONNECTED with packed int4 weights (family fully_connected_s4): the CMSIS-NN vectors
and the measured case of ../shared on the simd, scalar and reference paths, the measured
counts, and synthetic shapes that reach every branch of arm_nn_vec_mat_mult_t_s4 (odd
columns, the 2-column DSP tail, rows % 4 != 0, batches, no bias) against the numpy oracle.
(tests/kernels/test_oracle.py, test_reference_path.py, test_trace_equivalence.py,
test_reference_cycles.py and test_failed_it.py pick the cases up from ../shared as well.)"""
import numpy as np
import pytest

from armsim.kernels.families.fully_connected_s4 import unpacked_weights
from armsim.errors import CaseError
from armsim.pipeline.harness import run_case
from armsim.kernels.families import oracle
from armsim.pipeline.build import Build

from conftest import REFERENCE, VECTORS, expected_output, load_case, shared_cases

FAMILY = "fully_connected_s4"
VECTOR_FILES = shared_cases(VECTORS, FAMILY)
REFERENCE_FILES = shared_cases(REFERENCE, FAMILY)
PATHS = ("simd", "scalar", "reference")


def test_the_directories_hold_the_int4_fc_cases():
    assert len(VECTOR_FILES) == 4 and len(REFERENCE_FILES) == 1


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("file", VECTOR_FILES + REFERENCE_FILES, ids=lambda p: p.stem)
def test_bit_exact(file, path):
    case = load_case(file)
    result = run_case(case, Build(path))
    np.testing.assert_array_equal(result.output, expected_output(case).ravel())
    np.testing.assert_array_equal(result.output, oracle(case))


def test_packed_and_unpacked_weights_of_the_measured_case_agree():
    case = load_case(REFERENCE_FILES[0])
    np.testing.assert_array_equal(unpacked_weights(case), case["weights"])


def _synthetic(batches, depth, out_c, bias_is_null, seed):
    rng = np.random.default_rng(seed)
    weights = rng.integers(-8, 8, depth * out_c)
    padded = np.append(weights, 0) if weights.size % 2 else weights
    packed = ((padded[0::2] & 0xF) | (padded[1::2] << 4)).astype(np.int8)
    return {"case": f"fc_s4_{batches}x{depth}_o{out_c}", "family": FAMILY,
            "input_dims": {"n": batches, "h": 1, "w": 1, "c": depth},
            "filter_dims": {"n": depth, "h": 1, "w": 1, "c": out_c},
            "output_dims": {"n": batches, "h": 1, "w": 1, "c": out_c},
            "fc_params": {"input_offset": 17, "filter_offset": 0, "output_offset": -5,
                          "activation": {"min": -100, "max": 110}},
            "quant_params": {"per_channel": False, "multiplier": 1518500250, "shift": -6},
            "bias_is_null": bias_is_null,
            "input": rng.integers(-128, 128, batches * depth).tolist(),
            "weights": packed.tolist(),
            "bias": ([0] * out_c if bias_is_null
                     else rng.integers(-3000, 3000, out_c).tolist())}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", [(2, 13, 7, False), (1, 6, 5, True), (3, 9, 3, False),
                                   (1, 8, 4, True), (2, 11, 10, False)],
                         ids=lambda s: "x".join(map(str, s[:3])) + ("_nobias" if s[3] else ""))
def test_every_branch_against_the_oracle(shape, path):
    case = _synthetic(*shape, seed=sum(shape[:3]))
    np.testing.assert_array_equal(run_case(case, Build(path)).output, oracle(case))


def test_bad_packed_length_is_one_clear_line():
    case = load_case(VECTOR_FILES[0])
    case["weights"] = case["weights"][:-1]
    with pytest.raises(CaseError, match="weights: .* packed int4 bytes, expected"):
        run_case(case, Build("simd"))


def test_per_channel_is_refused():
    case = load_case(VECTOR_FILES[0])
    case["quant_params"] = {"per_channel": True}
    with pytest.raises(CaseError, match="per-tensor"):
        run_case(case, Build("simd"))
