"""AVERAGE_POOL_2D and MAX_POOL_2D share TFLM's pooling_common.cc Prepare.  int8 and int16
activations (cmsis_nn/pooling.cc: arm_avgpool_s8 / _s16, arm_max_pool_s8 / _s16)."""
from armsim.operators.common import (NotSimulated, Step, activation_range, case_tag, dims, error,
                                     input_tensor, padding, require_int8, require_rank,
                                     tensor_scale, tensor_zero_point)

POOL_OPTIONS = "Pool2DOptions"
POOL_FIELDS = ("Padding", "StrideW", "StrideH", "FilterWidth", "FilterHeight",
               "FusedActivationFunction")


def prepare_pool(model, op, family, function_s16):
    """The Step of a pooling op: `family` for int8, `family`_s16 (entry `function_s16`) for
    int16 activations."""
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    int16 = inp.type == "INT16"
    for t, what in ((inp, "input"), (out, "output")):
        if not int16:
            require_int8(model, op, t, what)
        elif t.type != "INT16":
            # TFLM's kernels run it, taking the output's type from the input's
            raise NotSimulated(f"{what} {t.describe()} is {t.type} but input {inp.describe()} "
                               f"is INT16: armsim simulates INT16 in and out only")
        elif not len(t.scale):
            raise error(model, op, f"{what} {t.describe()} has no quantization parameters")
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
    if int16:
        family = f"{family}_s16"
    case = {
        "case": case_tag(model, op), "family": family,
        "input_dims": dims(inp.shape),
        "filter_dims": {"n": 1, "h": o["FilterHeight"], "w": o["FilterWidth"], "c": 1},
        "output_dims": dims(out.shape),
        "pool_params": {"stride": {"h": o["StrideH"], "w": o["StrideW"]},
                        "padding": {"h": ph, "w": pw}, "activation": {"min": lo, "max": hi}},
        "tflite_padding": "SAME" if o["Padding"] == 0 else "VALID",
    }
    return Step(op.index, op.op, family, case, {"input": inp.index}, out.index, out.shape,
                cmsis_function=function_s16 if int16 else None)
