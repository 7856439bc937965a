"""UNIDIRECTIONAL_SEQUENCE_LSTM (int8, int16 cell state): arm_lstm_unidirectional_s8 against the
CMSIS-NN vectors and the measured counts of ../shared, the numpy oracle, and TFLM's reference
integer LSTM port.  (tests/test_oracle.py, test_reference_path.py, test_trace_equivalence.py,
test_reference_cycles.py and test_failed_it.py pick the cases up from ../shared too.)"""
import copy
import json

import numpy as np
import pytest
from conftest import MEASURED_BUILD, REFERENCE, VECTORS, shared_cases

from armsim.kernels import oracle_lstm
from armsim.kernels.harness import run_case

FILES = shared_cases(VECTORS, "lstm") + shared_cases(REFERENCE, "lstm")
MEASURED = shared_cases(REFERENCE, "lstm")
PATHS = ("simd", "scalar", "reference")
SIMD_MNEMONICS = ("smlad", "sxtb16", "sxtab16", "pkhbt", "smulbb", "smultt", "smlal")


def _load(path):
    return json.loads(path.read_text())


def test_the_directories_hold_lstm_cases():
    assert len(shared_cases(VECTORS, "lstm")) == 3 and len(MEASURED) == 2


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("file", FILES, ids=lambda p: p.stem)
def test_output_is_the_unit_tests(file, path):
    """Time major and batch major, NULL and given hidden state, one and two batches."""
    case = _load(file)
    result = run_case(case, path)
    np.testing.assert_array_equal(result.output, np.asarray(case["output_ref"], np.int8))


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", MEASURED, ids=lambda p: p.stem)
def test_counts_against_measured(file, path):
    case = _load(file)
    measured = case["measured"][MEASURED_BUILD[path]]
    result = run_case(case, path)
    assert result.kernel_path == measured["kernel_chain"]
    assert abs(result.instructions - measured["instructions"]) <= 0.05 * measured["instructions"]
    counts, hist = result.counts(), measured["mnemonic_histogram"]
    for mnemonic in SIMD_MNEMONICS + ("ldrsb", "mla", "ldrh", "ldrsh", "strh", "bl", "push"):
        assert counts.get(mnemonic, 0) == hist.get(mnemonic, 0), mnemonic


def test_oracle_is_sensitive():
    """A wrong parameter changes the oracle's output: the comparison can fail."""
    case = _load(VECTORS / "lstm_1.json")
    for mutate in (lambda p: p.__setitem__("cell_scale_power", p["cell_scale_power"] + 1),
                   lambda p: p["output_gate"].__setitem__("hidden_shift", -1),
                   lambda p: p.__setitem__("input_offset", p["input_offset"] - 3)):
        bad = copy.deepcopy(case)
        mutate(bad["lstm_params"])
        assert not np.array_equal(oracle_lstm.lstm(bad), np.asarray(case["output_ref"], np.int8))


def test_activation_matches_the_table_ends():
    """sigmoid(0) = 0.5, tanh(0) = 0, and past the table's end (input shifted left by one:
    |x| >> 9 >= 255) the saturation constants: sigmoid 32767 / 1, tanh +-32767 (Q0.15)."""
    x = np.array([0, 32767, -32768])
    np.testing.assert_array_equal(oracle_lstm.activation_s16(x, 1, True), [16384, 32767, 1])
    np.testing.assert_array_equal(oracle_lstm.activation_s16(x, 1, False), [0, 32767, -32767])


@pytest.mark.parametrize("path", PATHS)
def test_state_carries_between_steps(path):
    """Cutting the case after its first time step gives the first step's output: the later
    steps depend on the recurrence (their outputs differ from a fresh start)."""
    case = _load(VECTORS / "lstm_1.json")
    p = case["lstm_params"]
    first = copy.deepcopy(case)
    first["lstm_params"]["time_steps"] = 1
    step = p["batch_size"] * p["input_size"]
    first["input"] = case["input"][:step]
    out = run_case(first, path).output
    np.testing.assert_array_equal(out, np.asarray(case["output_ref"][:p["hidden_size"]], np.int8))
    restart = copy.deepcopy(first)
    restart["input"] = case["input"][step:2 * step]
    assert not np.array_equal(run_case(restart, path).output,
                              np.asarray(case["output_ref"][p["hidden_size"]:
                                                            2 * p["hidden_size"]], np.int8))
