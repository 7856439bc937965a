"""UNIDIRECTIONAL_SEQUENCE_LSTM 16x8 (int16 activations, int8 weights, int64 bias, int16 cell
state): arm_lstm_unidirectional_s16 and its callees against CMSIS-NN's lstm_*_s16 vectors,
the numpy oracle, and TFLM's reference EvalLstm<int16_t, int8_t, int16_t, int64_t> port.
(tests/test_oracle.py, test_reference_path.py, test_trace_equivalence.py and
test_failed_it.py pick the vectors up from ../shared too.)  ../shared/reference has no
measured lstm_s16 case: the kernels are transcribed from gcc's disassembly, their totals
are not checked against an execution here."""
import copy
import json

import numpy as np
import pytest
from conftest import VECTORS, shared_cases

from armsim.kernels import oracle_lstm
from armsim.kernels.harness import run_case

FILES = shared_cases(VECTORS, "lstm_s16")
PATHS = ("simd", "scalar", "reference")
CHAINS = {"simd": "arm_lstm_unidirectional_s16", "scalar": "arm_lstm_unidirectional_s16",
          "reference": "tflite::EvalLstm<short, signed char, short, long long>"}


def _load(path):
    return json.loads(path.read_text())


def test_the_directory_holds_three_s16_cases():
    assert [p.stem for p in FILES] == ["lstm_1_s16", "lstm_2_s16",
                                       "lstm_stateful_batch_major_multibatch_s16"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("file", FILES, ids=lambda p: p.stem)
def test_output_is_the_unit_tests(file, path):
    """Time major and batch major, NULL and given (zero) hidden state, one and two batches."""
    case = _load(file)
    result = run_case(case, path)
    assert result.kernel_path[0] == CHAINS[path]
    assert result.output.dtype == np.int16
    np.testing.assert_array_equal(result.output, np.asarray(case["output_ref"], np.int16))


@pytest.mark.parametrize("file", FILES, ids=lambda p: p.stem)
def test_oracle_is_the_unit_tests(file):
    case = _load(file)
    np.testing.assert_array_equal(oracle_lstm.lstm_s16(case),
                                  np.asarray(case["output_ref"], np.int16))


def test_oracle_is_sensitive():
    """A wrong parameter changes the oracle's output: the comparison can fail."""
    case = _load(VECTORS / "lstm_1_s16.json")
    for mutate in (lambda p: p.__setitem__("cell_scale_power", p["cell_scale_power"] + 1),
                   lambda p: p["output_gate"].__setitem__("hidden_shift", -7),
                   lambda p: p["cell_gate"].__setitem__("input_multiplier", 2**30)):
        bad = copy.deepcopy(case)
        mutate(bad["lstm_params"])
        assert not np.array_equal(oracle_lstm.lstm_s16(bad),
                                  np.asarray(case["output_ref"], np.int16))


def test_simd_uses_the_dsp_instructions_and_scalar_none():
    case = _load(VECTORS / "lstm_2_s16.json")
    simd, scalar = run_case(case, "simd").counts(), run_case(case, "scalar").counts()
    for mnemonic in ("smlad", "sxtb16", "pkhbt", "pkhtb", "smulbb", "smultt"):
        assert simd.get(mnemonic, 0) > 0 and scalar.get(mnemonic, 0) == 0, mnemonic


@pytest.mark.parametrize("path", PATHS)
def test_nonzero_offsets_and_a_clip_follow_the_oracle(path):
    """Zero points and a cell clip the vectors leave at 0 / 32767: an input offset (folded
    into the int64 effective bias), an output offset, a tight cell clip, a positive gate
    shift (multiplier above one) and a hidden state given (not NULL)."""
    case = copy.deepcopy(_load(VECTORS / "lstm_stateful_batch_major_multibatch_s16.json"))
    p = case["lstm_params"]
    p.update(input_offset=7, output_offset=-3, cell_clip=3000)
    p["input_gate"]["input_shift"] = 1
    n = p["batch_size"] * p["hidden_size"]
    case["hidden_state_init"] = [(-1) ** k * 100 * k for k in range(n)]
    want = oracle_lstm.lstm_s16(case)
    assert not np.array_equal(want, np.asarray(case["output_ref"], np.int16))
    np.testing.assert_array_equal(run_case(case, path).output, want)


@pytest.mark.parametrize("path", PATHS)
def test_state_carries_between_steps(path):
    """Cutting the case after its first time step gives the first step's output; the second
    step's input from a fresh start does not give the second step's output (recurrence)."""
    case = _load(VECTORS / "lstm_1_s16.json")
    p = case["lstm_params"]
    first = copy.deepcopy(case)
    first["lstm_params"]["time_steps"] = 1
    step = p["batch_size"] * p["input_size"]
    first["input"] = case["input"][:step]
    np.testing.assert_array_equal(run_case(first, path).output,
                                  np.asarray(case["output_ref"][:p["hidden_size"]], np.int16))
    restart = copy.deepcopy(first)
    restart["input"] = case["input"][step:2 * step]
    assert not np.array_equal(run_case(restart, path).output,
                              np.asarray(case["output_ref"][p["hidden_size"]:
                                                            2 * p["hidden_size"]], np.int16))
