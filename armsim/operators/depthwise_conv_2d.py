"""DEPTHWISE_CONV_2D: TFLM's Register_DEPTHWISE_CONV_2D() (cmsis_nn/depthwise_conv.cc,
depthwise_conv.cc), Prepare as depthwise_conv_common.cc derives the kernel parameters."""
from armsim.operators import EvalGlue, Operator, Weights, every_step
from armsim.operators.common import (Step, activation_range, bias_16x8, bias_values, case_tag,
                                     conv_geometry, conv_tensors, dims, error, int4_filter,
                                     per_channel_multipliers, tensor_zero_point, weights_values)


def prepare(model, op):
    inp, filt, bias, out = conv_tensors(model, op)
    int16 = inp.type == "INT16"           # 16x8: cmsis_nn/depthwise_conv.cc EvalInt16x8
    int4 = filt.type == "INT4"            # cmsis_nn/depthwise_conv.cc: ..._wrapper_s4
    weights = int4_filter(model, op, filt, int16) if int4 else weights_values(model, op, filt)
    o = op.options
    _, fh, fw, oc = filt.shape
    n, _, _, ic = inp.shape
    ch_mult = o["DepthMultiplier"]
    if ch_mult * ic != oc:
        # TFLM's kernels loop over the option's depth_multiplier (only a DCHECK compares it
        # with the shapes): any other value reads and writes outside the tensors
        raise error(model, op, f"option DepthMultiplier = {ch_mult} with {ic} input channels "
                               f"does not give the {oc} output channels")
    oh, ow, geometry = conv_geometry(model, op, inp, fh, fw, out, oc)
    mults, shifts = per_channel_multipliers(model, op, inp, filt, out, oc)
    if int16:                             # both kernels read an int64 bias
        bias_v, null, _, _ = bias_16x8(model, op, bias, oc)
    else:
        bias_v, null = bias_values(model, op, bias, oc)
    lo, hi = activation_range(o["FusedActivationFunction"], out, model, op)
    case = {
        "case": case_tag(model, op), "family": "depthwise_conv",
        "input_dims": dims(inp.shape), "filter_dims": {"n": 1, "h": fh, "w": fw, "c": oc},
        "output_dims": dims(out.shape),
        "dw_conv_params": {"input_offset": -tensor_zero_point(inp), "output_offset": tensor_zero_point(out),
                           "ch_mult": ch_mult, **geometry, "activation": {"min": lo, "max": hi}},
        "bias_is_null": null, "weights": weights, "bias": bias_v,
        "output_mult": mults, "output_shift": shifts,
    }
    macs = n * oh * ow * oc * fh * fw
    if int16:
        case["family"] = "depthwise_conv_s16"
        return Step(op.index, op.op, "depthwise_conv_s16", case, {"input": inp.index}, out.index,
                    out.shape, macs, cmsis_function="arm_depthwise_conv_wrapper_s16")
    if int4:
        case["family"] = "depthwise_conv_s4"
        return Step(op.index, op.op, "depthwise_conv_s4", case, {"input": inp.index}, out.index,
                    out.shape, macs, cmsis_function="arm_depthwise_conv_wrapper_s4")
    return Step(op.index, op.op, "depthwise_conv", case, {"input": inp.index}, out.index,
                out.shape, macs)


OPERATOR = Operator(
    name="DEPTHWISE_CONV_2D", max_version=7, prepare=prepare,
    input_counts=(2, 3), output_counts=(1,),   # CalculateOpDataDepthwiseConv
    options="DepthwiseConv2DOptions",
    option_fields=("Padding", "StrideW", "StrideH", "DepthMultiplier", "FusedActivationFunction",
                   "DilationWFactor", "DilationHFactor"),
    cmsis_entry="arm_depthwise_conv_wrapper_s8",
    glue={"cmsis": EvalGlue((56 + 105, 57 + 106), (3, 1, 4, 0)),
          "reference": EvalGlue((86 + 37 + 3, 86 + 37 + 3), (3, 1, 4, 0))},
    op_data=(28, 64, 64),      # TfLiteDepthwiseConvParams; OpDataConv
    families=("depthwise_conv", "depthwise_conv_s16", "depthwise_conv_s4"),
    wrapper=True,
    per_channel_data=every_step,
    weights=Weights(axis=3),
    converter_version=3,
)
