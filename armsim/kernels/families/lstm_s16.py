"""UNIDIRECTIONAL_SEQUENCE_LSTM 16x8: int16 activations (input, output, hidden state), int8
weights, int64 biases, int16 cell state: arm_lstm_unidirectional_s16 (TFLM's CMSIS-NN kernel
calls it for int16 input).

The case layout is the `lstm` family's (kernels/families/lstm.py) with int16 `input` /
output / `hidden_state_init` and int64 `<gate>_gate_bias`; the effective biases are int64
(TFLM's Prepare: arm_vector_sum_s8_s64, not counted), in the arena.  The three int16 scratch
buffers (temp1, temp2, cell_state) are the `lstm` family's.
"""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_lstm_unidirectional_s8 import PARAMS_BYTES_ALIGNED
from armsim.kernels.cmsis_nn.arm_lstm_unidirectional_s16 import (
    arm_lstm_unidirectional_s16,
)
from armsim.kernels.cmsis_nn.arm_nn_tables import SIGMOID_TABLE_UINT16
from armsim.kernels.families.lstm import (  # noqa: F401
    buffer_size,
    buffer_sizes,
    gate_tuple,
    output_count,
    params_tuple,
)
from armsim.errors import CaseError
from armsim.kernels.oracle_lstm import GATES, effective_biases, lstm_s16
from armsim.kernels.tflm.lstm import scratch_addresses
from armsim.kernels.tflm.lstm_s16 import (  # noqa: F401
    reference_buffer_size,
    reference_buffer_sizes,
    run_reference,
    state_arrays,
)

FUNCTIONS = ("arm_lstm_unidirectional_s16",)
CHAIN = ["arm_lstm_unidirectional_s16", "arm_nn_lstm_step_s16",
         "arm_nn_lstm_calculate_gate_s16", "arm_nn_vec_mat_mul_result_acc_s16"]
ARRAYS = {"input": ("sram", np.int16)}
ARRAYS.update({name: ("flash", np.int8) for g in GATES
               for name in (f"{g}_gate_input_weights", f"{g}_gate_hidden_weights")})
ARRAYS.update({f"{g}_gate_bias": ("flash", np.int64) for g in GATES})
OUTPUT_DTYPE = np.int16


def derived_arrays(case):
    arrays = {"sigmoid_table": ("flash", SIGMOID_TABLE_UINT16),
              "params_copy": ("sram", np.zeros(2 * PARAMS_BYTES_ALIGNED, np.uint8))}
    for g, (eff_x, eff_h) in effective_biases(case, s16=True).items():
        arrays[f"{g}_input_effective_bias"] = ("sram", eff_x.astype(np.int64))
        arrays[f"{g}_hidden_effective_bias"] = ("sram", eff_h.astype(np.int64))
    arrays.update(state_arrays(case))
    return arrays


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None,) + FUNCTIONS:
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int16 LSTM entry point "
                        f"(choose from {', '.join(FUNCTIONS)})")
    temp1, temp2, cell_state = scratch_addresses(addr["scratch"], buffer_sizes(case))
    gates = [tuple(int(v) for v in gate_tuple(case, addr, g)) for g in GATES]
    # TFLM's CMSIS-NN glue passes no hidden state (NULL); a unit test may give one
    hidden_state = addr["hidden_state"] if case.get("hidden_state_init") is not None else 0
    run(arm_lstm_unidirectional_s16, m, addr["sigmoid_table"], addr["params_copy"],
        addr["input"], addr["output"], params_tuple(case), *gates, temp1, temp2, cell_state,
        hidden_state, tracer=tracer)
    return list(CHAIN)


ORACLE = lstm_s16
