"""TRANSPOSE_CONV: TFLM's Register_TRANSPOSE_CONV() with its CMSIS-NN Eval
(cmsis_nn/transpose_conv.cc: arm_transpose_conv_wrapper_s8) and reference Eval
(transpose_conv.cc: reference_integer_ops::TransposeConv), int8.

Inputs: 0 the output shape (int32; TFLM ignores it and takes the output tensor's shape,
armsim checks the two agree), 1 the filter OHWI, 2 the input, 3 the bias (optional).
Padding is ComputePaddingHeightWidth run over the OUTPUT size, dilation 1: pad before =
total // 2 (`padding`), `padding_offsets` = total // 2 + total % 2.

TFLM's CMSIS-NN Prepare passes kTfLiteActNone to PopulateConvolutionQuantizationParams,
so its arm_transpose_conv_wrapper_s8 clamps to the int8 range whatever the fused
activation; the reference Prepare passes the op's activation.  armsim follows both: the
CMSIS-NN case (the step's `cmsis_case`) has activation [-128, 127], the reference case the
op's range.  A model with a fused activation therefore differs between the paths, as it
does on TFLM.
"""
import numpy as np

from armsim.operators import EvalGlue, Operator, Weights, every_step
from armsim.operators.common import (
    Step,
    activation_range,
    bias_values,
    case_tag,
    dims,
    error,
    input_tensor,
    per_channel_multipliers,
    require_int8,
    require_rank,
    tensor_zero_point,
    weights_values,
)


def _padding(pad_code, stride, out_size, filt):
    """ComputePaddingHeightWidth over the output extent: (pad before, pad before + odd)."""
    if pad_code == 0:   # SAME
        conv_out = (out_size + stride - 1) // stride
    else:               # VALID
        conv_out = (out_size + stride - filt) // stride
    total = max(0, (conv_out - 1) * stride + filt - out_size)
    return total // 2, total // 2 + total % 2


def prepare(model, op):
    shape_t = input_tensor(model, op, 0, "output shape")
    filt = input_tensor(model, op, 1, "filter")
    inp = input_tensor(model, op, 2, "input")
    bias = input_tensor(model, op, 3, "bias", required=False)
    out = model.tensors[op.outputs[0]]
    for t, what in ((inp, "input"), (out, "output")):
        require_int8(model, op, t, what)
        require_rank(model, op, t, 4, what)
    require_rank(model, op, filt, 4, "filter")
    if shape_t.data is not None and [int(v) for v in np.ravel(shape_t.data)] != list(out.shape):
        raise error(model, op, f"output shape operand {np.ravel(shape_t.data).tolist()} differs "
                               f"from the output tensor {out.describe()} {list(out.shape)}")
    o = op.options
    oc, fh, fw, fc = filt.shape
    n, ih, iw, ic = inp.shape
    _, oh, ow, out_c = out.shape
    if fc != ic:
        raise error(model, op, f"filter {filt.describe()} has {fc} input channels, the input "
                               f"{ic}")
    if out_c != oc or out.shape[0] != n:
        raise error(model, op, f"output {out.describe()} {list(out.shape)} does not match "
                               f"batch {n} and {oc} filters")
    pad_h, off_h = _padding(o["Padding"], o["StrideH"], oh, fh)
    pad_w, off_w = _padding(o["Padding"], o["StrideW"], ow, fw)
    mults, shifts = per_channel_multipliers(model, op, inp, filt, out, oc)
    bias_v, null = bias_values(model, op, bias, oc)
    lo, hi = activation_range(o.get("FusedActivationFunction", 0), out, model, op)
    params = {"input_offset": -tensor_zero_point(inp), "output_offset": tensor_zero_point(out),
              "stride": {"h": o["StrideH"], "w": o["StrideW"]},
              "padding": {"h": pad_h, "w": pad_w},
              "padding_offsets": {"h": off_h, "w": off_w},
              "dilation": {"h": 1, "w": 1}}
    case = {
        "case": case_tag(model, op), "family": "transpose_conv",
        "input_dims": dims(inp.shape), "filter_dims": {"n": oc, "h": fh, "w": fw, "c": ic},
        "output_dims": dims(out.shape),
        "transpose_conv_params": {**params, "activation": {"min": lo, "max": hi}},
        "bias_is_null": null, "weights": weights_values(model, op, filt), "bias": bias_v,
        "output_mult": mults, "output_shift": shifts,
    }
    cmsis_case = {**case, "transpose_conv_params": {**params,
                                                    "activation": {"min": -128, "max": 127}}}
    macs = n * ih * iw * ic * fh * fw * oc
    return Step(op.index, op.op, "transpose_conv", case, {"input": inp.index}, out.index,
                out.shape, macs, cmsis_case=cmsis_case)


OPERATOR = Operator(
    name="TRANSPOSE_CONV", max_version=4, prepare=prepare,
    options="TransposeConvOptions",
    option_fields=("Padding", "StrideW", "StrideH", "FusedActivationFunction"),
    cmsis_entry="arm_transpose_conv_wrapper_s8",
    # Eval + EvalQuantizedPerChannel (3 inputs, 4 shapes, 2 scratch buffers) and the
    # reference Eval (5 shapes incl. the null im2col shape, 1 scratch buffer): body sizes
    # estimated after CONV_2D's measured glue, not measured for this op
    glue={"cmsis": EvalGlue((140, 142), (3, 1, 4, 2)),
          "reference": EvalGlue((120, 120), (3, 1, 5, 1))},
    # TfLiteTransposeConvParams (5 words); OpData: ConvParams (56) + 3 indices + 2 pointers
    # (CMSIS-NN), + 2 indices + 2 pointers (reference)
    op_data=(20, 76, 72),
    families=("transpose_conv",),
    per_channel_data=every_step,
    weights=Weights(weights=1, bias=3, input=2, axis=0),
    converter_version=3,
)
