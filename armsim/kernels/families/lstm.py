"""UNIDIRECTIONAL_SEQUENCE_LSTM, int8 activations, int8 weights, int16 cell state:
arm_lstm_unidirectional_s8 (TFLM's CMSIS-NN kernel calls it for int8 input).

Arrays: `input`, per gate (`forget`, `input`, `cell`, `output`) `<gate>_gate_input_weights`
[hidden, input], `<gate>_gate_hidden_weights` [hidden, hidden] (flash) and `<gate>_gate_bias`;
`hidden_state_init` (int8 [batch, hidden], optional: null / absent is a NULL hidden state for
CMSIS-NN, the zero point for TFLM's reference kernel, whose variable tensors `hidden_state`
and `cell_state_tensor` are placed here too).
The effective biases (`<gate>_input_effective_bias`, `<gate>_hidden_effective_bias`) are
computed as TFLM's Prepare computes them (arm_vector_sum_s8, not counted: TFLM runs it once
in Prepare) and live in the arena (AllocatePersistentBuffer), like the hidden state;
sigmoid_table_uint16 is in flash.  The three int16 buffers TFLM's Prepare requests (temp1,
temp2, cell_state; batch * hidden each) are the case's scratch block; the cell state starts
at zero (the kernel clears it itself when the hidden state is NULL).
"""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_lstm_unidirectional_s8 import (
    PARAMS_BYTES_ALIGNED,
    arm_lstm_unidirectional_s8,
)
from armsim.kernels.cmsis_nn.arm_nn_activation_s16 import ARM_SIGMOID, ARM_TANH
from armsim.kernels.cmsis_nn.arm_nn_tables import SIGMOID_TABLE_UINT16
from armsim.errors import CaseError
from armsim.kernels.oracle_lstm import GATES, effective_biases, lstm
from armsim.kernels.tflm.lstm import (  # noqa: F401
    reference_buffer_size,
    reference_buffer_sizes,
    run_reference,
    scratch_addresses,
    scratch_block,
    state_arrays,
)

FUNCTIONS = ("arm_lstm_unidirectional_s8",)
CHAIN = ["arm_lstm_unidirectional_s8", "arm_nn_lstm_step_s8",
         "arm_nn_lstm_calculate_gate_s8_s16", "arm_nn_vec_mat_mul_result_acc_s8_s16"]
ACTIVATIONS = {"ARM_SIGMOID": ARM_SIGMOID, "ARM_TANH": ARM_TANH}
ARRAYS = {name: ("flash", np.int8) for g in GATES
          for name in (f"{g}_gate_input_weights", f"{g}_gate_hidden_weights")}
ARRAYS.update({f"{g}_gate_bias": ("flash", np.int32) for g in GATES})


def _sizes(case):
    p = case["lstm_params"]
    return p["batch_size"], p["time_steps"], p["input_size"], p["hidden_size"]


def buffer_sizes(case):
    """temp1, temp2 and cell_state: batch * hidden int16 each (TFLM's three requests)."""
    n_b, _, _, n_h = _sizes(case)
    return (2 * n_b * n_h,) * 3


def buffer_size(case, dsp, armclang):
    return scratch_block(buffer_sizes(case))


def output_count(case):
    n_b, n_t, _, n_h = _sizes(case)
    return n_b * n_t * n_h


def derived_arrays(case):
    arrays = {"sigmoid_table": ("flash", SIGMOID_TABLE_UINT16),
              "params_copy": ("sram", np.zeros(2 * PARAMS_BYTES_ALIGNED, np.uint8))}
    for g, (eff_x, eff_h) in effective_biases(case).items():
        arrays[f"{g}_input_effective_bias"] = ("sram", eff_x)
        arrays[f"{g}_hidden_effective_bias"] = ("sram", eff_h)
    arrays.update(state_arrays(case))
    return arrays


def gate_tuple(case, addr, g):
    gp = case["lstm_params"][f"{g}_gate"]
    if gp["activation_type"] not in ACTIVATIONS:
        raise CaseError(f"{case.get('case', '?')}: {g} gate activation "
                        f"{gp['activation_type']!r} (ARM_SIGMOID or ARM_TANH)")
    return (gp["input_multiplier"], gp["input_shift"], addr[f"{g}_gate_input_weights"],
            addr[f"{g}_input_effective_bias"], gp["hidden_multiplier"], gp["hidden_shift"],
            addr[f"{g}_gate_hidden_weights"], addr[f"{g}_hidden_effective_bias"],
            ACTIVATIONS[gp["activation_type"]])


def params_tuple(case):
    p = case["lstm_params"]
    return tuple(int(v) for v in (
        p["time_major"], p["batch_size"], p["time_steps"], p["input_size"], p["hidden_size"],
        p["input_offset"], p["forget_to_cell_multiplier"], p["forget_to_cell_shift"],
        p["input_to_cell_multiplier"], p["input_to_cell_shift"], p["cell_clip"],
        p["cell_scale_power"], p["output_multiplier"], p["output_shift"], p["output_offset"]))


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None,) + FUNCTIONS:
        raise CaseError(f"{case.get('case', '?')}: {function} is not an LSTM entry point "
                        f"(choose from {', '.join(FUNCTIONS)})")
    temp1, temp2, cell_state = scratch_addresses(addr["scratch"], buffer_sizes(case))
    gates = [tuple(int(v) for v in gate_tuple(case, addr, g)) for g in GATES]
    # TFLM's CMSIS-NN glue passes no hidden state (NULL); a unit test may give one
    hidden_state = addr["hidden_state"] if case.get("hidden_state_init") is not None else 0
    run(arm_lstm_unidirectional_s8, m, addr["sigmoid_table"], addr["params_copy"],
        addr["input"], addr["output"], params_tuple(case), *gates, temp1, temp2, cell_state,
        hidden_state, tracer=tracer)
    return list(CHAIN)


ORACLE = lstm
