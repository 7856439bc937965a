"""tflite::EvalLstm<int16_t, int8_t, int16_t, int64_t>: TFLM's reference 16x8 LSTM (int16
input / hidden state, int8 weights, int64 bias, int16 cell state), the int8 port's code
(kernels/tflm/lstm.py) with `act_bytes` 2: gcc 12.2 -O2 compiles the two instances of
CalculateLstmGate, LstmStep and the inlined EvalLstm to the same instructions but for the
FullyConnected overload (int16 input, int64 accumulator and bias, the 64-bit
MultiplyByQuantizedMultiplier: `FullyConnected16x8`), the int16 hidden state's Mul, the
memcpy's byte count and one CBNZ (disassemblies of TFLM 90b983c's
unidirectional_sequence_lstm.cc and lstm_eval.cc, -mcpu=cortex-m4 -O2, compared)."""
import numpy as np

from armsim.kernels.tflm.lstm import (  # noqa: F401
    reference_buffer_size,
    reference_buffer_sizes,
    run_eval,
)
from armsim.kernels.tflm.multiply_s64 import MBQM64

NAME = "tflite::EvalLstm<short, signed char, short, long long>"


def run_reference(m, case, addr, tracer):
    run_eval(m, case, addr, tracer, 2)
    return [NAME, "tflite::lstm_internal::LstmStep", MBQM64]


def state_arrays(case):
    """The variable tensors (hidden state int16: 0, or the case's `hidden_state_init`; cell
    state int16 0) and `shape_scratch` (see tflm/lstm.py).  TFLM's ResetVariableTensors
    fills a variable tensor with its zero point only when it is INT8: an int16 hidden state
    starts at raw 0 whatever its zero point (real value -zero_point x scale)."""
    p = case["lstm_params"]
    init = case.get("hidden_state_init")
    n = p["batch_size"] * p["hidden_size"]
    hidden = np.zeros(n, np.int16) if init is None else np.asarray(init, np.int16)
    return {"hidden_state": ("sram", hidden), "cell_state_tensor": ("sram", np.zeros(n, np.int16)),
            "shape_scratch": ("sram", np.zeros(32, np.uint8))}
