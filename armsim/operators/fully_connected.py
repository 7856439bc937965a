"""FULLY_CONNECTED: TFLM's Register_FULLY_CONNECTED() (cmsis_nn/fully_connected.cc,
fully_connected.cc), Prepare as fully_connected_common.cc derives the kernel parameters
(per-tensor GetQuantizedConvolutionMultipler, per-channel QuantizeMultiplier)."""

from armsim.operators import EvalGlue, Operator, Weights
from armsim.operators.common import (NotSimulated, Step, activation_range, bias_values,
                                     case_tag, check_quantized_bias_type,
                                     convolution_multiplier, error, input_tensor, int4_filter,
                                     per_channel_multipliers, TENSOR_TYPE_INT32, require_16x8, require_int8,
                                     require_rank, tensor_scale, tensor_zero_point,
                                     weights_values)


def prepare(model, op):
    inp, filt = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "weights")
    bias = input_tensor(model, op, 2, "bias", required=False)
    out = model.tensors[op.outputs[0]]
    int16 = inp.type == "INT16"           # 16x8: cmsis_nn/fully_connected.cc's int16 branch
    int4 = filt.type == "INT4"            # cmsis_nn/fully_connected.cc EvalQuantizedInt4
    if int16:
        require_16x8(model, op, inp, out, filt)
    else:
        require_int8(model, op, inp, "input")
        require_int8(model, op, out, "output")
    require_rank(model, op, filt, 2, "weights")
    # ParseFullyConnected accepts DEFAULT and SHUFFLED4x16INT8 and refuses any other code;
    # TFLM's int8 kernels never read the format, so shuffled weights run as default ones
    if op.options.get("WeightsFormat", 0) not in (0, 1):
        raise error(model, op, f"unknown weights format {op.options['WeightsFormat']} "
                               f"(TFLM's options parser refuses it)")
    units, depth = filt.shape
    if not units or not depth:
        raise error(model, op, f"weights {filt.describe()} have shape {list(filt.shape)}: "
                               f"an empty dimension")
    check_quantized_bias_type(model, op)
    if inp.size % depth:
        raise error(model, op, f"input {inp.describe()} of {inp.size} values is not a multiple "
                              f"of the accumulation depth {depth}")
    if not 2 <= len(out.shape) <= 4 or out.shape[-1] != units:
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, expected "
                              f"[..., {units}]")
    batches = out.size // units
    if batches * depth != inp.size:
        raise error(model, op, f"input {inp.describe()} holds {inp.size} values, {batches} "
                              f"batches of depth {depth} need {batches * depth}")
    per_channel = len(filt.scale) > 1
    if int4 and per_channel:
        # fully_connected_common.cc: per-channel quantization only for INT8/INT16 filters
        raise error(model, op, f"weights {filt.describe()} are INT4 with per-channel scales: "
                               f"TFLM runs INT4 fully connected per-tensor only")
    weights = int4_filter(model, op, filt, int16) if int4 else weights_values(model, op, filt)
    if int16 and (per_channel or (bias is not None and bias.type == "INT32")
                  or (bias is None and op.options.get("QuantizedBiasType", 0) == TENSOR_TYPE_INT32)):
        # TFLM's CMSIS-NN Prepare refuses per-channel int16 (TF_LITE_ENSURE(!is_per_channel
        # || input int8)) and its Eval reads the bias as int64; the reference kernel runs
        # both (int32 accumulation for an int32 bias or quantized_bias_type INT32)
        raise NotSimulated(f"{'per-channel weights' if per_channel else 'an INT32 bias'} with "
                           f"INT16 activations: only TFLM's reference kernel runs it")
    bias_v, null = bias_values(model, op, bias, units, "INT64" if int16 else "INT32")
    lo, hi = activation_range(op.options["FusedActivationFunction"], out, model, op)
    case = {
        "case": case_tag(model, op), "family": "fully_connected_s16" if int16 else "fully_connected",
        "input_dims": {"n": batches, "h": 1, "w": 1, "c": depth},
        "filter_dims": {"n": depth, "h": 1, "w": 1, "c": units},
        "output_dims": {"n": batches, "h": 1, "w": 1, "c": units},
        "fc_params": {"input_offset": -tensor_zero_point(inp), "filter_offset": -tensor_zero_point(filt),
                      "output_offset": tensor_zero_point(out), "activation": {"min": lo, "max": hi}},
        "bias_is_null": null, "weights": weights, "bias": bias_v,
    }
    if per_channel:
        mults, shifts = per_channel_multipliers(model, op, inp, filt, out, units)
        case["quant_params"] = {"per_channel": True}
        case["output_mult"], case["output_shift"] = mults, shifts
    else:
        if bias is not None:      # an unquantized bias has scale 0 there, as in TFLM
            diff = abs(float(tensor_scale(inp)) * float(tensor_scale(filt)) - float(tensor_scale(bias)))
            if not diff / float(tensor_scale(out)) <= 0.02:      # NaN fails, as in TFLM
                raise error(model, op, f"bias {bias.describe()} scale does not match "
                                      f"input_scale * filter_scale")
        q, s = convolution_multiplier(model, op, inp, filt, out)
        case["quant_params"] = {"per_channel": False, "multiplier": q, "shift": s}
    step = Step(op.index, op.op, case["family"], case, {"input": inp.index}, out.index, out.shape,
                batches * units * depth)
    if int16:
        step.cmsis_function = "arm_fully_connected_s16"
        return step
    if int4:                              # always arm_fully_connected_s4 (no 1x1 conv route)
        case["family"] = step.family = "fully_connected_s4"
        step.cmsis_function = "arm_fully_connected_s4"
        return step
    if len(out.shape) > 2 and depth % 4 == 0 and tensor_zero_point(filt) == 0:
        # cmsis_nn/fully_connected.cc: an output of more than 2 dims with a depth that is a
        # multiple of 4 runs as arm_convolve_1x1_s8_fast (per-tensor quantization is faked
        # per channel in an extra scratch buffer of 2 * 4 * output_depth bytes)
        if per_channel:
            mults, shifts = case["output_mult"], case["output_shift"]
        else:
            q = case["quant_params"]
            mults, shifts = [q["multiplier"]] * units, [q["shift"]] * units
        conv = {
            "case": case["case"], "family": "conv", "groups": 1,
            "input_dims": case["input_dims"], "filter_dims": {"n": units, "h": 1, "w": 1, "c": depth},
            "output_dims": case["output_dims"],
            "conv_params": {"input_offset": -tensor_zero_point(inp), "output_offset": tensor_zero_point(out),
                            "stride": {"h": 1, "w": 1}, "padding": {"h": 0, "w": 0},
                            "dilation": {"h": 1, "w": 1}, "activation": {"min": lo, "max": hi}},
            "bias_is_null": null, "weights": case["weights"], "bias": bias_v,
            "output_mult": mults, "output_shift": shifts,
        }
        step.cmsis_case, step.cmsis_function = conv, "arm_convolve_1x1_s8_fast"
        step.cmsis_scratch_bytes = 0 if per_channel else 2 * 4 * units
    return step


def per_channel_quantized(step):
    """OpDataFullyConnected holds per-channel multipliers and shifts for per-channel weights
    only."""
    return bool(step.case.get("quant_params", {}).get("per_channel"))


OPERATOR = Operator(
    name="FULLY_CONNECTED", max_version=12, prepare=prepare,
    options="FullyConnectedOptions",
    option_fields=("FusedActivationFunction", "WeightsFormat", "KeepNumDims",
                   "QuantizedBiasType"),
    cmsis_entry="arm_fully_connected_wrapper_s8",
    glue={"cmsis": EvalGlue((44 + 86, 45 + 85), (3, 1, 1, 0)),       # Eval + EvalQuantizedInt8
          "reference": EvalGlue((74 + 17, 74 + 17), (3, 1, 4, 0))},
    op_data=(8, 80, 48),       # TfLiteFullyConnectedParams; OpDataFullyConnected
    families=("fully_connected", "fully_connected_s16", "fully_connected_s4"),
    wrapper=True,
    per_channel_data=per_channel_quantized,
    weights=Weights(axis=0, per_axis=False, weight_offset=True),
    converter_version=4,
)
