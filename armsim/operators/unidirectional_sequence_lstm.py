"""UNIDIRECTIONAL_SEQUENCE_LSTM: TFLM's Register_UNIDIRECTIONAL_SEQUENCE_LSTM() with its CMSIS-NN
Eval (cmsis_nn/unidirectional_sequence_lstm.cc: arm_lstm_unidirectional_s8 for int8 input and
int8 weights, arm_lstm_unidirectional_s16 for int16 input and int8 weights) and reference
Eval (unidirectional_sequence_lstm.cc + lstm_eval: EvalLstm int8x8_16 and int16x8_16), int8
or int16 activations with an int16 cell state (family `lstm` / `lstm_s16`).

Inputs (24, TFLite's order): 0 input [batch, time, features] ([time, batch, features] when
time_major), 1-4 input-to-(input, forget, cell, output) weights [units, features], 5-8
recurrent-to-* weights [units, units], 9-11 peephole weights, 12-15 gate biases [units],
16-17 projection weights / bias, 18 the output (hidden) state and 19 the cell state
(variable tensors), 20-23 layer-norm coefficients.  As LstmTensors::ValidateTensorStatus:
1-8 and 12-15 present (no CIFG), 9-11, 16-17 and 20-23 absent, 18 / 19 variable, output
and hidden state of the input's type; Prepare: 1-8 and 12-15 constant, the shapes of
ValidateTensorSize, a rank-3 input and output.

Prepare (lstm_eval_common.cc PrepareGateParametersInteger): each gate's input and recurrent
fully connected part requantizes into Q3.12 (scale 2^-12) with QuantizeMultiplier of
double(float(input scale x weight scale)) / 2^-12 (GetQuantizedConvolutionMultipler); the
inter-gate products forget x cell -> cell (2^-15 x cell scale / cell scale), input x cell
gate -> cell (2^-15 x 2^-15 / cell scale) and output x tanh(cell) -> hidden (2^-15 x 2^-15 /
hidden scale, + hidden zero point); cell_state_scale_power = CheckedLog2(cell scale);
quantized_cell_clip = (int16)clamp(cell_clip / cell scale) (the CMSIS-NN kernel clamps to it
when it is positive, TFLM's reference kernel when the float cell_clip is: a clip below one
cell-state step differs between the two, as in TFLM; `cell_clip_enabled` carries the float
test to the reference path).  The CMSIS-NN glue
(CMSIS_NN_PortOpData) also precomputes per gate the effective biases (arm_vector_sum_s8:
bias + input_offset x row sums, and -hidden zero point x recurrent row sums) into eight
persistent buffers of units int32 (16x8: int64, arm_vector_sum_s8_s64;
the step's `cmsis_persistent_bytes`; the family computes the same sums from the case).
16x8: the biases are int64 (EvalLstm<int16_t, int8_t, int16_t, int64_t> and
CMSIS_NN_PortOpData<int64_t> read them so; TFLM does not check their type, armsim refuses
another), the weights int8 (TFLM's Eval: "Filter type ... not supported"); zero points are
taken as they are (neither TFLM kernel requires 0).  Scratch: three int16 buffers of batch x units (CMSIS-NN),
four (reference).

State: TFLM's CMSIS-NN glue passes no hidden state to the kernel (hidden_state NULL: the
cell state is cleared and the first step has no recurrent term in every invocation), its
reference kernel reads and updates the two variable tensors (reset to the hidden zero point
and 0).  Both give the same output for a model's first invocation after a reset, which is
what armsim runs; a second invocation of the same interpreter differs between TFLM's two
builds (the reference carries the state over).

Refused or not simulated as TFLM: a float cell state (not simulated: TFLM runs its float
kernel on the host), per-channel weights (TFLM's LSTM kernels read
the per-tensor multiplier only: not simulated), a cell activation other than TANH (TFLM's
reference gate asserts; its CMSIS-NN glue would use a sigmoid).
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import (QuantizationError, checked_log2,
                                                   quantize_multiplier)
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (
    NotSimulated,
    Step,
    case_tag,
    error,
    fused_activation,
    input_tensor,
    require_int8,
    tensor_scale,
    tensor_zero_point,
    weights_values,
)

GATES = ("input", "forget", "cell", "output")     # TFLite's tensor order
INPUT_WEIGHTS = {g: 1 + k for k, g in enumerate(GATES)}
RECURRENT_WEIGHTS = {g: 5 + k for k, g in enumerate(GATES)}
BIASES = {g: 12 + k for k, g in enumerate(GATES)}
ABSENT = (9, 10, 11, 16, 17, 20, 21, 22, 23)
HIDDEN_STATE, CELL_STATE = 18, 19
Q3_12 = np.float32(0.000244140625)                # the gates' fully connected output, 2^-12
Q0_15 = np.float32(0.000030517578125)             # the gates' activation output, 2^-15


def _multiplier(model, op, real, what):
    try:
        return quantize_multiplier(float(real))
    except QuantizationError as e:
        raise error(model, op, f"{what}: {e}") from None


def _fc_multiplier(model, op, x, w, what):
    """GetQuantizedConvolutionMultipler: double(float product) / double(2^-12)."""
    product = np.float32(tensor_scale(x) * tensor_scale(w))
    return _multiplier(model, op, float(product) / float(Q3_12), what)


def _mul_multiplier(model, op, s1, s2, out, what):
    """CreateInterGateMulParams: double(s1) * double(s2) / double(out)."""
    return _multiplier(model, op, float(s1) * float(s2) / float(out), what)


def _tensors(model, op):
    inp = input_tensor(model, op, 0, "input")
    for i in ABSENT:
        t = input_tensor(model, op, i, f"input {i}", required=False)
        if t is not None:
            raise error(model, op, f"input {i} {t.describe()} must be absent: TFLM's LSTM has "
                                   f"no peephole, projection or layer-norm tensors")
    w_in = {g: input_tensor(model, op, INPUT_WEIGHTS[g], f"input-to-{g} weights")
            for g in GATES}
    w_rec = {g: input_tensor(model, op, RECURRENT_WEIGHTS[g], f"recurrent-to-{g} weights")
             for g in GATES}
    bias = {g: input_tensor(model, op, BIASES[g], f"{g} gate bias") for g in GATES}
    hidden = input_tensor(model, op, HIDDEN_STATE, "output state")
    cell = input_tensor(model, op, CELL_STATE, "cell state")
    return inp, w_in, w_rec, bias, hidden, cell, model.tensors[op.outputs[0]]


def prepare(model, op):
    inp, w_in, w_rec, bias, hidden, cell, out = _tensors(model, op)
    for t, what in ((hidden, "output state"), (cell, "cell state")):
        if not t.is_variable:
            raise error(model, op, f"{what} {t.describe()} must be a variable tensor")
    if cell.type == "FLOAT32" or inp.type not in ("INT8", "INT16"):
        raise NotSimulated(f"input {inp.describe()} {inp.type} with a {cell.type} cell state: "
                           f"armsim simulates the int8 and 16x8 LSTMs (int16 cell state)")
    if cell.type != "INT16":
        raise error(model, op, f"cell state {cell.describe()} is {cell.type}: TFLM's quantized "
                               f"LSTM supports an int16 cell state only")
    int16 = inp.type == "INT16"
    if not int16:
        require_int8(model, op, inp, "input")
    elif not len(inp.scale):
        raise error(model, op, f"input {inp.describe()} has no quantization parameters")
    for t, what in ((hidden, "output state"), (out, "output")):
        if t.type != inp.type:
            raise error(model, op, f"{what} {t.describe()} is {t.type}, the input is {inp.type}")
    weights = list(w_in.values()) + list(w_rec.values())
    for t in weights:
        if t.type != weights[0].type:
            raise error(model, op, f"weights {t.describe()} are {t.type}, "
                                   f"{weights[0].describe()} {weights[0].type}")
        if len(t.scale) > 1:
            raise NotSimulated(f"per-channel weights {t.describe()}: TFLM's LSTM kernels "
                               f"apply the per-tensor multiplier only")
    if int16 and weights[0].type != "INT8":
        raise error(model, op, f"weights {weights[0].describe()} are {weights[0].type} with INT16 "
                               f"activations: TFLM's LSTM runs 16x8 (int8 weights) only")
    bias_type = "INT64" if int16 else "INT32"
    for t in list(bias.values()):
        if t.type != bias_type:
            raise error(model, op, f"bias {t.describe()} is {t.type}; the "
                                   f"{'16x8' if int16 else 'int8'} LSTM takes {bias_type.lower()}")
    for t in weights + list(bias.values()):
        if t.data is None:
            raise error(model, op, f"{t.describe()} is not constant (TFLM's Prepare requires "
                                   f"constant weights and biases)")
    if len(inp.shape) != 3:
        raise error(model, op, f"input {inp.describe()} has shape {list(inp.shape)}, expected "
                               f"3 dimensions")
    time_major = bool(op.options["TimeMajor"])
    n_t, n_b = (inp.shape[0], inp.shape[1]) if time_major else (inp.shape[1], inp.shape[0])
    n_in = inp.shape[2]
    n_h = hidden.shape[-1] if len(hidden.shape) == 2 else -1
    if n_h <= 0:
        raise error(model, op, f"output state {hidden.describe()} must be [batch, units]")
    for g in GATES:
        for t, want in ((w_in[g], (n_h, n_in)), (w_rec[g], (n_h, n_h)), (bias[g], (n_h,))):
            if tuple(t.shape) != want:
                raise error(model, op, f"{t.describe()} has shape {list(t.shape)}, "
                                       f"ValidateTensorSize requires {list(want)}")
    for t, what in ((hidden, "output state"), (cell, "cell state")):
        if int(np.prod(t.shape)) != n_b * n_h:
            raise error(model, op, f"{what} {t.describe()} has {int(np.prod(t.shape))} "
                                   f"elements, batch x units is {n_b * n_h}")
    if tuple(out.shape) != (inp.shape[0], inp.shape[1], n_h):
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, Prepare "
                               f"requires {[inp.shape[0], inp.shape[1], n_h]}")
    activation = fused_activation(op.options["FusedActivationFunction"])
    if activation != "TANH":
        raise error(model, op, f"cell activation {activation}: TFLM's LSTM gate computes "
                               f"TANH or sigmoid only (its reference kernel asserts)")
    s_cell, s_hidden = tensor_scale(cell), tensor_scale(hidden)
    hidden_zp = tensor_zero_point(hidden)
    cell_clip = np.float32(op.options["CellClip"])
    quantized_clip = int(np.trunc(min(max(float(cell_clip) / float(s_cell), -32768.0),
                                      32767.0)))
    gate_params = {}
    for g in GATES:
        im, ish = _fc_multiplier(model, op, inp, w_in[g], f"input x {g} weights / 2^-12")
        hm, hsh = _fc_multiplier(model, op, hidden, w_rec[g], f"state x {g} weights / 2^-12")
        gate_params[f"{g}_gate"] = {
            "input_multiplier": im, "input_shift": ish, "hidden_multiplier": hm,
            "hidden_shift": hsh, "activation_type": "ARM_TANH" if g == "cell" else "ARM_SIGMOID"}
    f2c = _mul_multiplier(model, op, Q0_15, s_cell, s_cell, "forget x cell / cell scale")
    i2c = _mul_multiplier(model, op, Q0_15, Q0_15, s_cell, "input x cell gate / cell scale")
    o2h = _mul_multiplier(model, op, Q0_15, Q0_15, s_hidden, "output x tanh / state scale")
    params = {"time_major": time_major, "batch_size": n_b, "time_steps": n_t,
              "input_size": n_in, "hidden_size": n_h, "input_offset": -tensor_zero_point(inp),
              "forget_to_cell_multiplier": f2c[0], "forget_to_cell_shift": f2c[1],
              "input_to_cell_multiplier": i2c[0], "input_to_cell_shift": i2c[1],
              "cell_clip": quantized_clip, "cell_clip_enabled": bool(cell_clip > 0),
              "cell_scale_power": checked_log2(s_cell)[0],
              "output_multiplier": o2h[0], "output_shift": o2h[1], "output_offset": hidden_zp,
              **gate_params}
    family = "lstm_s16" if int16 else "lstm"
    case = {"case": case_tag(model, op), "family": family, "lstm_params": params}
    for g in GATES:
        case[f"{g}_gate_input_weights"] = weights_values(model, op, w_in[g])
        case[f"{g}_gate_hidden_weights"] = weights_values(model, op, w_rec[g])
        case[f"{g}_gate_bias"] = bias[g].data.ravel().astype(np.int64 if int16 else np.int32)
    macs = n_t * n_b * 4 * n_h * (n_in + n_h)
    return Step(op.index, op.op, family, case, {"input": inp.index}, out.index, out.shape, macs,
                cmsis_persistent_bytes=8 * (8 if int16 else 4) * n_h,
                cmsis_function="arm_lstm_unidirectional_s16" if int16 else None)


OPERATOR = Operator(
    name="UNIDIRECTIONAL_SEQUENCE_LSTM", max_version=4, prepare=prepare,
    options="UnidirectionalSequenceLSTMOptions",
    option_fields=("FusedActivationFunction", "CellClip", "ProjClip", "TimeMajor",
                   "AsymmetricQuantizeInputs"),
    cmsis_entry="arm_lstm_unidirectional_s8",
    # the Eval's own instructions on the int8 path, read off TFLM 90b983c's objects (gcc 12.2
    # -O2 -mcpu=cortex-m4; the M3 build taken as equal): UnidirectionalSequenceLstmEval (CMSIS-NN
    # 40 with CMSIS_NN_EvalInteger8x8_16Lstm inlined; reference 25 around the inlined EvalLstm,
    # which the reference port counts), CreateLSTMKernelContent (180: its loop over the 24
    # inputs) and the buffers helper (CMSIS_NN_CreateLSTMBuffers 19, CreateLSTMBuffers 23);
    # the 24 GetMutableEvalInput calls priced as GetEvalInput, 1 output, 3 / 4 scratch buffers.
    # The 16x8 path shares these figures: its type dispatch is 2 instructions shorter in both
    # Evals (the int16 compare comes first), not modelled
    glue={"cmsis": EvalGlue((239, 239), (24, 1, 0, 3)),
          "reference": EvalGlue((228, 228), (24, 1, 0, 4))},
    # TfLiteUnidirectionalSequenceLSTMParams (activation, cell_clip, proj_clip, time_major,
    # 2 bools); OpDataLSTM (size info 24, cell state info 12, activation 4, 4 gates x 2
    # FullyConnectedParams 96, 3 ArithmeticParams 264, 4 buffer indices 16: ~704 estimated)
    # plus, CMSIS-NN, cmsis_nn_lstm_params (220: the struct arm_lstm_unidirectional_s8's
    # batch-major path copies)
    op_data=(20, 924, 704),
    input_counts=(24,), output_counts=(1,),
    families=("lstm", "lstm_s16"),
)
