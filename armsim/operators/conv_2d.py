"""CONV_2D: TFLM's Register_CONV_2D() with its CMSIS-NN Eval (cmsis_nn/conv.cc) and
reference Eval (conv.cc), Prepare as conv_common.cc derives the kernel parameters."""
from armsim.operators import EvalGlue, Operator, Weights, every_step
from armsim.operators.common import (NotSimulated, Step, activation_range, bias_16x8,
                                     bias_values, case_tag,
                                     check_quantized_bias_type, conv_geometry, conv_tensors,
                                     dims, error, int4_filter, per_channel_multipliers,
                                     tensor_zero_point, weights_values)


def prepare(model, op):
    inp, filt, bias, out = conv_tensors(model, op)
    check_quantized_bias_type(model, op)
    o = op.options
    oc, fh, fw, fc = filt.shape
    n, _, _, ic = inp.shape
    if ic % fc:
        raise error(model, op, f"input channels {ic} not a multiple of filter channels {fc}")
    groups = ic // fc
    if oc % groups:
        raise error(model, op, f"{oc} output channels not divisible into {groups} groups")
    int16 = inp.type == "INT16"           # 16x8: cmsis_nn/conv.cc EvalInt16x8
    int4 = filt.type == "INT4"            # cmsis_nn/conv.cc: arm_convolve_wrapper_s4
    weights = int4_filter(model, op, filt, int16) if int4 else weights_values(model, op, filt)
    if int4 and groups > 1:
        raise NotSimulated(f"a grouped convolution ({groups} groups) with INT4 weights: "
                           f"arm_convolve_wrapper_s4 has no groups")
    if int16 and groups > 1:
        raise NotSimulated(f"a grouped convolution ({groups} groups) with INT16 activations: "
                           f"arm_convolve_s16 has no groups")
    oh, ow, geometry = conv_geometry(model, op, inp, fh, fw, out, oc)
    mults, shifts = per_channel_multipliers(model, op, inp, filt, out, oc)
    if int16:
        bias_v, null, cmsis_int32, reference_int32 = bias_16x8(model, op, bias, oc)
    else:
        bias_v, null = bias_values(model, op, bias, oc)
    lo, hi = activation_range(o["FusedActivationFunction"], out, model, op)
    case = {
        "case": case_tag(model, op), "family": "conv", "groups": groups,
        "input_dims": dims(inp.shape), "filter_dims": {"n": oc, "h": fh, "w": fw, "c": fc},
        "output_dims": dims(out.shape),
        "conv_params": {"input_offset": -tensor_zero_point(inp), "output_offset": tensor_zero_point(out), **geometry,
                        "activation": {"min": lo, "max": hi}},
        "bias_is_null": null, "weights": weights, "bias": bias_v,
        "output_mult": mults, "output_shift": shifts,
    }
    macs = n * oh * ow * oc * fh * fw * fc
    if int16:
        case.update(family="conv_s16", is_int32_bias=reference_int32)
        return Step(op.index, op.op, "conv_s16", case, {"input": inp.index}, out.index, out.shape,
                    macs, cmsis_case=dict(case, is_int32_bias=cmsis_int32),
                    cmsis_function="arm_convolve_wrapper_s16")
    if int4:
        case["family"] = "conv_s4"
        return Step(op.index, op.op, "conv_s4", case, {"input": inp.index}, out.index, out.shape,
                    macs, cmsis_function="arm_convolve_wrapper_s4")
    return Step(op.index, op.op, "conv", case, {"input": inp.index}, out.index, out.shape, macs)


OPERATOR = Operator(
    name="CONV_2D", max_version=8, prepare=prepare,
    input_counts=(2, 3), output_counts=(1,),   # conv_common.cc CalculateOpDataConv
    options="Conv2DOptions",
    option_fields=("Padding", "StrideW", "StrideH", "FusedActivationFunction", "DilationWFactor",
                   "DilationHFactor", "QuantizedBiasType"),
    cmsis_entry="arm_convolve_wrapper_s8",
    glue={"cmsis": EvalGlue((57 + 81, 58 + 82), (3, 1, 0, 0)),       # Eval + EvalQuantizedPerChannel
          "reference": EvalGlue((83 + 32 + 3, 83 + 32 + 3), (3, 1, 4, 0))},
          # ConvEval + ConvParamsQuantized + RuntimePaddingType
    op_data=(24, 64, 64),      # TfLiteConvParams; OpDataConv
    families=("conv", "conv_s16", "conv_s4"),
    wrapper=True,
    per_channel_data=every_step,
    weights=Weights(axis=0),
    converter_version=3,
)
