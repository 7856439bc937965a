"""AVERAGE_POOL_2D and MAX_POOL_2D share TFLM's pooling_common.cc Prepare."""
from armsim.operators.common import (Step, activation_range, case_tag, dims, error,
                                     input_tensor, padding, require_int8, require_rank,
                                     tensor_scale, tensor_zero_point)

POOL_OPTIONS = "Pool2DOptions"
POOL_FIELDS = ("Padding", "StrideW", "StrideH", "FilterWidth", "FilterHeight",
               "FusedActivationFunction")


def prepare_pool(model, op, family):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    for t, what in ((inp, "input"), (out, "output")):
        require_int8(model, op, t, what)
        require_rank(model, op, t, 4, what)
    o = op.options
    n, ih, iw, c = inp.shape
    oh, ph = padding(o["Padding"], o["StrideH"], 1, ih, o["FilterHeight"])
    ow, pw = padding(o["Padding"], o["StrideW"], 1, iw, o["FilterWidth"])
    if out.shape != (n, oh, ow, c):
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, Prepare "
                               f"computes {[n, oh, ow, c]}")
    # pooling_common.cc: |input scale - output scale| <= 1e-6 (float difference as double)
    # and equal zero points; the kernels never requantize, the output scale only sets the
    # activation range
    scale_diff = float(abs(tensor_scale(inp) - tensor_scale(out)))
    if not scale_diff <= 1.0e-6 or tensor_zero_point(inp) != tensor_zero_point(out):
        raise error(model, op, f"input and output quantization differ (scales "
                               f"{float(tensor_scale(inp)):g} / {float(tensor_scale(out)):g}, "
                               f"zero points {tensor_zero_point(inp)} / "
                               f"{tensor_zero_point(out)}; TFLM allows a scale difference of "
                               f"1e-6 and equal zero points)")
    lo, hi = activation_range(o["FusedActivationFunction"], out, model, op)
    case = {
        "case": case_tag(model, op), "family": family,
        "input_dims": dims(inp.shape),
        "filter_dims": {"n": 1, "h": o["FilterHeight"], "w": o["FilterWidth"], "c": 1},
        "output_dims": dims(out.shape),
        "pool_params": {"stride": {"h": o["StrideH"], "w": o["StrideW"]},
                        "padding": {"h": ph, "w": pw}, "activation": {"min": lo, "max": hi}},
        "tflite_padding": "SAME" if o["Padding"] == 0 else "VALID",
    }
    return Step(op.index, op.op, family, False, case, {"input": inp.index}, out.index,
                out.shape)
