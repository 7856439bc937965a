"""Numpy oracles of the int8 LSTM (family `lstm`) and the int16 LSTM (family `lstm_s16`):
TFLM's 8x8->16 and 16x8->16 integer LSTMs as CMSIS-NN's arm_lstm_unidirectional_s8 / _s16 and
TFLM's reference lstm_eval compute them, written over whole arrays from the vectors' README
fields (no armsim kernels).

Per time step (int16 gates, Q3.12 gate inputs, Q0.15 gate outputs):
    gate = act(clamp16(clamp16(rq(x W_x^T + eff_x)) + rq(h W_h^T + eff_h)))
           (no recurrent term while the hidden state is NULL: the first step of a call
           without hidden_state)
    cell = clamp16(rq(forget * cell)); cell = clamp(cell + rq(input * cell_gate), +-clip)
    h    = clamp8(rq(output * tanh(cell)) + output_offset)
with eff_x = bias + input_offset * row sums of W_x and eff_h = -output_offset * row sums
of W_h (TFLM's Prepare), `rq` the README requantization, sigmoid / tanh the
sigmoid_table_uint16 interpolation of arm_nn_activation_s16.  int16 (`s16`): int16 input and
hidden state, int64 effective biases and sums, the gates' matmuls requantized with the
64-bit requantization (`oracle_s16.requantize_s64`), the hidden state clamped to int16.
"""
import numpy as np

from armsim.kernels.cmsis_nn.arm_nn_tables import SIGMOID_TABLE_UINT16
from armsim.kernels.oracle import _wrap32, requantize
from armsim.kernels.oracle_s16 import requantize_s64

GATES = ("forget", "input", "cell", "output")
Q15_MIN, Q15_MAX = -32768, 32767


def effective_biases(case, s16=False):
    """{gate: (input effective bias, hidden effective bias)} as int32 arrays (int64 for
    `s16`), TFLM's Prepare (arm_vector_sum_s8, arm_vector_sum_s8_s64)."""
    p = case["lstm_params"]
    n_in, n_h = p["input_size"], p["hidden_size"]
    out = {}
    for g in GATES:
        wx = np.asarray(case[f"{g}_gate_input_weights"], np.int64).reshape(n_h, n_in)
        wh = np.asarray(case[f"{g}_gate_hidden_weights"], np.int64).reshape(n_h, n_h)
        bias = np.asarray(case[f"{g}_gate_bias"], np.int64)
        eff_x = bias + p["input_offset"] * wx.sum(axis=1)
        eff_h = -p["output_offset"] * wh.sum(axis=1)
        if s16:
            out[g] = (eff_x, eff_h)
        else:
            out[g] = (_wrap32(eff_x).astype(np.int32), _wrap32(eff_h).astype(np.int32))
    return out


def activation_s16(x, left_shift, sigmoid):
    """arm_nn_activation_s16 over an int array."""
    x = np.asarray(x, np.int64)
    table = SIGMOID_TABLE_UINT16.astype(np.int64)
    if left_shift < 0:
        mult, shift, rounding = 3, -left_shift, 1 << (-left_shift - 1)
    else:
        mult, shift, rounding = 3 << left_shift, 0, 0
    data = (x * mult + rounding) >> shift
    a = np.abs(data)
    abs_shift = 9 if sigmoid else 8
    uh = a >> abs_shift
    safe = np.minimum(uh, 254)
    ut = a & (0x1FF if sigmoid else 0xFF)
    interp = (table[safe] << abs_shift) + ut * (table[safe + 1] - table[safe])
    result = np.where(uh >= 255, (0x7FFF << 10) if sigmoid else (0xFFFF << 8), interp)
    if sigmoid:
        r = np.where(data >= 0, result + (1 << 9), (1 << 25) - result + (1 << 9) - 1) >> 10
    else:
        r = np.where(data >= 0, result - (1 << 23) + (1 << 7),
                     (1 << 23) - result + (1 << 7) - 1) >> 8
    return ((r + 2**15) & 0xFFFF) - 2**15                    # the int16 store


def _matmul_rq(x, w, eff, mult, shift, s16):
    """One gate matmul requantized: int32 accumulator (int8) or int64 (int16)."""
    if s16:
        return requantize_s64(x @ w.T + eff, mult, shift)
    return requantize(_wrap32(x @ w.T + eff), mult, shift)


def _gate(case, g, x, h, eff, s16):
    p = case["lstm_params"]
    n_in, n_h = p["input_size"], p["hidden_size"]
    gp = p[f"{g}_gate"]
    wx = np.asarray(case[f"{g}_gate_input_weights"], np.int64).reshape(n_h, n_in)
    out = np.clip(_matmul_rq(x, wx, eff[g][0], gp["input_multiplier"], gp["input_shift"],
                             s16), Q15_MIN, Q15_MAX)
    if h is not None:
        wh = np.asarray(case[f"{g}_gate_hidden_weights"], np.int64).reshape(n_h, n_h)
        out = np.clip(out + _matmul_rq(h, wh, eff[g][1], gp["hidden_multiplier"],
                                       gp["hidden_shift"], s16), Q15_MIN, Q15_MAX)
    return activation_s16(out, 0, gp["activation_type"] == "ARM_SIGMOID")


def _step(case, x, h, cell, eff, s16):
    p = case["lstm_params"]
    forget = _gate(case, "forget", x, h, eff, s16)
    cell = np.clip(requantize(forget * cell, p["forget_to_cell_multiplier"],
                              p["forget_to_cell_shift"]), Q15_MIN, Q15_MAX)
    inp = _gate(case, "input", x, h, eff, s16)
    cg = _gate(case, "cell", x, h, eff, s16)
    clip = p["cell_clip"]
    lo, hi = (-clip, clip) if clip > 0 else (Q15_MIN, Q15_MAX)
    cell = np.clip(cell + requantize(inp * cg, p["input_to_cell_multiplier"],
                                     p["input_to_cell_shift"]), lo, hi)
    out = _gate(case, "output", x, h, eff, s16)
    t = activation_s16(cell, p["cell_scale_power"] + 12, False)
    lo, hi = (Q15_MIN, Q15_MAX) if s16 else (-128, 127)
    hidden = np.clip(requantize(out * t, p["output_multiplier"], p["output_shift"])
                     + p["output_offset"], lo, hi)
    return hidden, cell


def lstm(case, s16=False):
    """The int8 (int16 for `s16`) output [time, batch, hidden] (time major) or [batch, time,
    hidden], flat."""
    p = case["lstm_params"]
    n_b, n_t, n_in, n_h = p["batch_size"], p["time_steps"], p["input_size"], p["hidden_size"]
    eff = effective_biases(case, s16)
    x_all = np.asarray(case["input"], np.int64)
    init = case.get("hidden_state_init")
    if p["time_major"]:
        x_all = x_all.reshape(n_t, n_b, n_in)
        out = np.zeros((n_t, n_b, n_h), np.int64)
        h = None if init is None else np.asarray(init, np.int64).reshape(n_b, n_h)
        cell = np.zeros((n_b, n_h), np.int64)
        for t in range(n_t):
            h, cell = _step(case, x_all[t], h, cell, eff, s16)
            out[t] = h
    else:
        x_all = x_all.reshape(n_b, n_t, n_in)
        out = np.zeros((n_b, n_t, n_h), np.int64)
        for b in range(n_b):
            h = None if init is None else np.asarray(init, np.int64).reshape(n_b, n_h)[b:b + 1]
            cell = np.zeros((1, n_h), np.int64)
            for t in range(n_t):
                h, cell = _step(case, x_all[b, t:t + 1], h, cell, eff, s16)
                out[b, t] = h[0]
    return out.ravel().astype(np.int16 if s16 else np.int8)


def lstm_s16(case):
    """The int16 LSTM's output (family `lstm_s16`)."""
    return lstm(case, s16=True)
