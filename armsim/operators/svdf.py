"""SVDF: TFLM's Register_SVDF() with its CMSIS-NN Eval (cmsis_nn/svdf.cc: arm_svdf_s8 for int8
time weights, arm_svdf_state_s16_s8 for int16) and reference Eval (svdf.cc +
svdf_common.cc: EvalInt8SvdfReference / EvalInt16SvdfReference), int8 input and output.

Inputs: 0 input [batch, input_size], 1 weights_feature [filters, input_size] int8,
2 weights_time [filters, memory] int8 or int16, 3 bias [filters / rank] int32, 4 the
activation state, a variable tensor [batch, memory * filters] of the time weights' type.
Prepare (svdf_common.cc PrepareSvdf): effective_scale_1 = input scale * feature scale /
state scale and effective_scale_2 = state scale * time scale / output scale, each a float
expression (float32 arithmetic) turned into QuantizeMultiplier's (multiplier, shift); the
bias scale must equal state scale * time scale within 1e-5.  TFLM reads the bias tensor's
scale unconditionally, so a bias is required here too.

The state starts as TFLM's ResetVariableTensors leaves it (the zero point for int8, 0 for
int16) and is updated in place by each invocation.  TFLM's CMSIS-NN glue passes the state
zero point to neither kernel and clamps the feature stage to the int16 range for int8
state as well (`svdf_params.input_activation = INT16_MIN..INT16_MAX`); its reference
kernel subtracts the state zero point and clamps to the state type.  armsim follows both
(CMSIS-NN case in the step's `cmsis_case`): they agree when the state zero point is 0 and the
feature values fit the state type.
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (
    Step,
    case_tag,
    error,
    input_tensor,
    require_int8,
    require_rank,
    tensor_scale,
    tensor_zero_point,
    weights_values,
)

_STATE_TYPES = {"INT8": ("svdf", np.int8, (-128, 127)),
                "INT16": ("svdf_state_s16", np.int16, (-32768, 32767))}


def _multiplier(model, op, scale, what):
    try:
        return quantize_multiplier(float(scale))
    except QuantizationError as e:
        raise error(model, op, f"{what}: {e}") from None


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    wf = input_tensor(model, op, 1, "weights_feature")
    wt = input_tensor(model, op, 2, "weights_time")
    bias = input_tensor(model, op, 3, "bias", required=False)
    state = input_tensor(model, op, 4, "activation state")
    out = model.tensors[op.outputs[0]]
    for t, what in ((inp, "input"), (out, "output")):
        require_int8(model, op, t, what)
        require_rank(model, op, t, 2, what)
    for t, what in ((wf, "weights_feature"), (wt, "weights_time"), (state, "activation state")):
        require_rank(model, op, t, 2, what)
    rank = int(op.options["Rank"])
    batch, input_size = inp.shape
    filters = wf.shape[0]
    if rank <= 0 or filters % rank:
        raise error(model, op, f"{filters} filters not divisible by rank {rank}")
    units = filters // rank
    memory = wt.shape[1]
    if wf.shape[1] != input_size or wt.shape[0] != filters:
        raise error(model, op, f"weights {list(wf.shape)} / {list(wt.shape)} do not match "
                               f"input size {input_size} and {filters} filters")
    if out.shape != (batch, units):
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, Prepare "
                               f"requires {[batch, units]}")
    if state.shape != (batch, memory * filters) or not state.is_variable:
        raise error(model, op, f"activation state {state.describe()} must be a variable tensor "
                               f"of shape {[batch, memory * filters]}")
    if wt.type not in _STATE_TYPES or state.type != wt.type:
        raise error(model, op, f"weights_time {wt.describe()} ({wt.type}) and state "
                               f"{state.describe()} ({state.type}) must both be INT8 or INT16")
    if bias is None:
        raise error(model, op, "no bias: TFLM's SVDF Prepare reads the bias tensor's scale "
                               "(input 3) unconditionally")
    if bias.type != "INT32" or bias.data is None or bias.size != units:
        raise error(model, op, f"bias {bias.describe()} must be a constant INT32 tensor of "
                               f"{units} values")
    family, state_dtype, state_range = _STATE_TYPES[wt.type]
    f32 = np.float32
    scale_1 = f32(tensor_scale(inp) * tensor_scale(wf)) / tensor_scale(state)
    scale_2 = f32(tensor_scale(state) * tensor_scale(wt)) / tensor_scale(out)
    bias_scale = f32(tensor_scale(state) * tensor_scale(wt))
    if abs(float(tensor_scale(bias)) - float(bias_scale)) >= 1e-5:
        raise error(model, op, f"bias scale {float(tensor_scale(bias))} is not state scale x "
                               f"weights_time scale {float(bias_scale)}")
    mult_1, shift_1 = _multiplier(model, op, scale_1, "input x weights_feature / state scale")
    mult_2, shift_2 = _multiplier(model, op, scale_2, "state x weights_time / output scale")
    if wt.data is None:
        raise error(model, op, f"weights_time {wt.describe()} are not constant")
    state_zp = tensor_zero_point(state) if wt.type == "INT8" else 0
    params = {"rank": rank, "input_offset": tensor_zero_point(inp),
              "output_offset": tensor_zero_point(out),
              "output_activation": {"min": -128, "max": 127}}
    case = {
        "case": case_tag(model, op), "family": family,
        "svdf_params": {**params, "state_offset": state_zp,
                        "input_activation": {"min": state_range[0], "max": state_range[1]}},
        "input_quant_params": {"multiplier": mult_1, "shift": shift_1},
        "output_quant_params": {"multiplier": mult_2, "shift": shift_2},
        "input_dims": {"n": batch, "h": input_size}, "weights_feature_dims": {"n": filters},
        "weights_time_dims": {"h": memory}, "num_steps": 1, "bias_is_null": False,
        "state": np.full(batch * memory * filters, state_zp, state_dtype),
        "weights_feature": weights_values(model, op, wf),
        "weights_time": wt.data.ravel().astype(state_dtype),
        "bias": [int(v) for v in bias.data.ravel()],
    }
    cmsis_case = {**case, "svdf_params": {**params, "input_activation": {"min": -32768,
                                                                           "max": 32767}}}
    macs = batch * (filters * input_size + filters * memory)
    return Step(op.index, op.op, family, case, {"input": inp.index}, out.index, out.shape, macs,
                cmsis_case=cmsis_case)


OPERATOR = Operator(
    name="SVDF", max_version=4, prepare=prepare,
    options="SVDFOptions", option_fields=("Rank", "FusedActivationFunction"),
    cmsis_entry=None,
    # EvalSvdf + EvalIntegerSVDF (5 inputs incl. the mutable state, 1 output, no shapes,
    # 2 scratch buffers) / the reference EvalSvdf; body sizes estimated, not measured
    glue={"cmsis": EvalGlue((110, 112), (5, 1, 0, 2)),
          "reference": EvalGlue((60, 60), (5, 1, 0, 2))},
    # TfLiteSVDFParams (rank, activation, asymmetric_quantize_inputs); CmsisNnOpDataSvdf
    # (4 scales, 2 indices, 3 zero points, kernel_sums); OpDataSvdf (4 scales, 2 indices,
    # 3 zero points)
    op_data=(12, 40, 36),
    families=("svdf", "svdf_state_s16"),
    converter_version=3,
)
