"""Derive every kernel parameter from a validated `Model` as TFLite Micro's Prepare does.

Each operator becomes a `Step`: the case dict (the CMSIS-NN vectors' JSON schema, see
../shared/cmsis_nn_vectors/README.md) that `armsim.kernels.harness.run_case` runs on any path, or,
for ops without a CMSIS-NN port, the case a `armsim.kernels.tflm.<op>` reference port runs.
Activation arrays (`input`, `input2`) are filled in at run time by `armsim.profiler`.

Sources (tflite-micro 90b983c): conv_common.cc / depthwise_conv_common.cc
(CalculateOpData*: ComputePaddingHeightWidth, PopulateConvolutionQuantizationParams),
fully_connected_common.cc (per-tensor GetQuantizedConvolutionMultipler, per-channel
QuantizeMultiplier), pooling_common.cc, softmax_common.cc (PreprocessSoftmaxScaling,
CalculateInputRadius), add_common.cc (left shift 20, twice the max input scale),
mul_common.cc, reduce_common.cc, quantize_common.cc, kernel_util.cc
(CalculateActivationRangeQuantized) and the cmsis_nn/*.cc glue that fills the CMSIS-NN
structs (input_offset = -input zero point, output_offset = output zero point).
"""
import math
from dataclasses import dataclass, field

import numpy as np

from armsim.kernels.tflm.quantization_util import (QuantizationError, quantize_multiplier,
                                            quantize_multiplier_greater_than_one,
                                            quantize_multiplier_smaller_than_one_exp,
                                            tflite_round)

from .model import ModelError

# ops whose int8 kernel is a CMSIS-NN family (simd/scalar) with a TFLM reference port
FAMILY_OF = {"CONV_2D": "conv", "DEPTHWISE_CONV_2D": "depthwise_conv",
             "FULLY_CONNECTED": "fully_connected", "AVERAGE_POOL_2D": "avgpool",
             "MAX_POOL_2D": "maxpool", "SOFTMAX": "softmax", "ADD": "elementwise_add",
             "MUL": "elementwise_mul"}
# ops that only have a TFLM reference port (kernels/tflm/<module>.py), on every path
REFERENCE_ONLY = {"RESHAPE": "reshape", "SQUEEZE": "reshape", "PAD": "pad",
                  "CONCATENATION": "concatenation", "MEAN": "mean", "QUANTIZE": "quantize",
                  "DEQUANTIZE": "dequantize"}

_ACT = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6"}
_INT8_MIN, _INT8_MAX = -128, 127


@dataclass
class Step:
    """One operator ready to run."""
    index: int
    op: str
    family: str                 # harness family, or the reference module for REFERENCE_ONLY
    reference_only: bool
    case: dict
    inputs: dict                # case field ("input", "input2", "inputs") -> tensor index
    output: int                 # output tensor index
    output_shape: tuple
    macs: int = 0
    host: bool = False          # float QUANTIZE/DEQUANTIZE: computed on the host, not simulated
    extra: dict = field(default_factory=dict)


def _err(model, op, msg):
    return ModelError(f"{_file(model)}: {op.describe()}: {msg}")


def _file(model):
    import os
    return os.path.basename(model.path)


def _scale(t):
    """The per-tensor scale as the float TfLiteQuantizationParams.scale holds."""
    return np.float32(t.scale[0]) if len(t.scale) else np.float32(0.0)


def _zp(t):
    return int(t.zero_point[0]) if len(t.zero_point) else 0


def activation_range(act, out, model=None, op=None):
    """CalculateActivationRangeQuantized for an int8 output (kernel_util.cc)."""
    scale, zp = _scale(out), _zp(out)

    def quantize(f):   # zero_point + (int32)TfLiteRound(f / scale), in float
        return zp + int(tflite_round(float(np.float32(f) / scale)))
    name = _ACT.get(act)
    if name is None:
        raise _err(model, op, f"unsupported fused activation code {act}")
    if name == "NONE":
        return _INT8_MIN, _INT8_MAX
    if name == "RELU":
        return max(_INT8_MIN, quantize(0.0)), _INT8_MAX
    if name == "RELU6":
        return max(_INT8_MIN, quantize(0.0)), min(_INT8_MAX, quantize(6.0))
    return max(_INT8_MIN, quantize(-1.0)), min(_INT8_MAX, quantize(1.0))


def padding(pad_code, stride, dilation, in_size, filt):
    """ComputePaddingHeightWidth for one dimension: (output size, pad before)."""
    eff = (filt - 1) * dilation + 1
    if pad_code == 0:   # SAME
        out = (in_size + stride - 1) // stride
    else:               # VALID
        out = (in_size + stride - eff) // stride
    total = max(0, (out - 1) * stride + eff - in_size)
    return out, total // 2


def _per_channel(model, op, inp, filt, out, channels):
    """PopulateConvolutionQuantizationParams: per-channel (multiplier, shift) lists."""
    in_scale, out_scale = _scale(inp), _scale(out)
    scales = filt.scale
    if len(scales) not in (1, channels):
        raise _err(model, op, f"{filt.describe()} has {len(scales)} scales for {channels} "
                              f"output channels")
    mults, shifts = [], []
    for c in range(channels):
        fs = float(np.float32(scales[c if len(scales) > 1 else 0]))
        eff = float(in_scale) * fs / float(out_scale)
        try:
            q, s = quantize_multiplier(eff)
        except QuantizationError as e:
            raise _err(model, op, f"channel {c}: {e}") from None
        mults.append(q)
        shifts.append(s)
    return mults, shifts


def _tensor(model, op, pos, what, required=True):
    idx = op.inputs[pos] if pos < len(op.inputs) else -1
    if idx < 0:
        if required:
            raise _err(model, op, f"missing {what} (input {pos})")
        return None
    return model.tensors[idx]


def _require_int8(model, op, t, what):
    if t.type != "INT8":
        kind = {"FLOAT32": "float", "FLOAT16": "float", "INT16": "int16"}.get(t.type, t.type)
        raise _err(model, op, f"{what} {t.describe()} is {t.type} ({kind} model?): armsim "
                              f"runs int8-quantized models only")
    if not len(t.scale):
        raise _err(model, op, f"{what} {t.describe()} has no quantization parameters")


def _rank(model, op, t, n, what):
    if len(t.shape) != n:
        raise _err(model, op, f"{what} {t.describe()} has shape {list(t.shape)}, expected "
                              f"{n} dimensions")


def _dims(shape):
    n, h, w, c = shape
    return {"n": int(n), "h": int(h), "w": int(w), "c": int(c)}


def _bias(model, op, bias, channels):
    if bias is None:
        return [0] * channels, True
    if bias.type != "INT32" or bias.data is None:
        raise _err(model, op, f"bias {bias.describe()} must be a constant INT32 tensor")
    if bias.size != channels:
        raise _err(model, op, f"bias {bias.describe()} has {bias.size} values for {channels} "
                              f"output channels")
    return [int(v) for v in bias.data.ravel()], False


def _weights(model, op, w):
    if w.data is None:
        raise _err(model, op, f"weights {w.describe()} are not constant")
    if w.type != "INT8":
        raise _err(model, op, f"weights {w.describe()} are {w.type}; armsim needs int8 weights")
    if len(w.zero_point) and np.any(w.zero_point != 0) and op.op != "FULLY_CONNECTED":
        raise _err(model, op, f"weights {w.describe()} have a non-zero zero point")
    return w.data.ravel().astype(np.int8)


def prepare(model):
    """All steps of `model` in execution order; raises ModelError naming the op."""
    return [_prepare_op(model, op) for op in model.operators]


def _prepare_op(model, op):
    name = op.op
    try:
        fn = _PREPARE[name]
    except KeyError:
        raise _err(model, op, "op not supported") from None
    _check_options(model, op)
    try:
        return fn(model, op)
    except ModelError:
        raise
    except (ArithmeticError, IndexError, KeyError, TypeError, ValueError) as e:
        # anything the explicit checks above did not name: still one line naming the op
        raise _err(model, op, f"invalid parameters ({type(e).__name__}: {e})") from None


def _check_options(model, op):
    """Option ranges TFLM's Prepare assumes (strides, dilations, filter sizes, padding)."""
    o = op.options
    for key in ("StrideW", "StrideH", "DilationWFactor", "DilationHFactor", "FilterWidth",
                "FilterHeight", "DepthMultiplier"):
        if key in o and o[key] < 1:
            raise _err(model, op, f"option {key} = {o[key]} must be >= 1")
    if "Padding" in o and o["Padding"] not in (0, 1):
        raise _err(model, op, f"unknown padding code {o['Padding']}")
    if "FusedActivationFunction" in o and o["FusedActivationFunction"] not in _ACT:
        raise _err(model, op, f"unsupported fused activation code "
                              f"{o['FusedActivationFunction']}")


def _conv_tensors(model, op):
    """CONV_2D and DEPTHWISE_CONV_2D operands: (input, filter, bias or None, output); int8
    rank-4 activations, a rank-4 filter."""
    inp, filt = _tensor(model, op, 0, "input"), _tensor(model, op, 1, "filter")
    bias = _tensor(model, op, 2, "bias", required=False)
    out = model.tensors[op.outputs[0]]
    for t, what in ((inp, "input"), (out, "output")):
        _require_int8(model, op, t, what)
        _rank(model, op, t, 4, what)
    _rank(model, op, filt, 4, "filter")
    return inp, filt, bias, out


def _conv_geometry(model, op, inp, fh, fw, out, oc):
    """Both convolutions' padding (ComputePaddingHeightWidth) and the output shape Prepare
    requires; returns (oh, ow, the params' stride/padding/dilation entries)."""
    o = op.options
    n, ih, iw, _ = inp.shape
    oh, ph = padding(o["Padding"], o["StrideH"], o["DilationHFactor"], ih, fh)
    ow, pw = padding(o["Padding"], o["StrideW"], o["DilationWFactor"], iw, fw)
    if out.shape != (n, oh, ow, oc):
        raise _err(model, op, f"output {out.describe()} has shape {list(out.shape)}, Prepare "
                              f"computes {[n, oh, ow, oc]}")
    return oh, ow, {"stride": {"h": o["StrideH"], "w": o["StrideW"]},
                    "padding": {"h": ph, "w": pw},
                    "dilation": {"h": o["DilationHFactor"], "w": o["DilationWFactor"]}}


def _conv(model, op):
    inp, filt, bias, out = _conv_tensors(model, op)
    o = op.options
    oc, fh, fw, fc = filt.shape
    n, _, _, ic = inp.shape
    if ic % fc:
        raise _err(model, op, f"input channels {ic} not a multiple of filter channels {fc}")
    groups = ic // fc
    if oc % groups:
        raise _err(model, op, f"{oc} output channels not divisible into {groups} groups")
    oh, ow, geometry = _conv_geometry(model, op, inp, fh, fw, out, oc)
    mults, shifts = _per_channel(model, op, inp, filt, out, oc)
    bias_v, null = _bias(model, op, bias, oc)
    lo, hi = activation_range(o["FusedActivationFunction"], out, model, op)
    case = {
        "case": f"{model.name}:{op.index}:{name_of(op)}", "family": "conv", "groups": groups,
        "input_dims": _dims(inp.shape), "filter_dims": {"n": oc, "h": fh, "w": fw, "c": fc},
        "output_dims": _dims(out.shape),
        "conv_params": {"input_offset": -_zp(inp), "output_offset": _zp(out), **geometry,
                        "activation": {"min": lo, "max": hi}},
        "bias_is_null": null, "weights": _weights(model, op, filt), "bias": bias_v,
        "output_mult": mults, "output_shift": shifts,
    }
    macs = n * oh * ow * oc * fh * fw * fc
    return Step(op.index, op.op, "conv", False, case, {"input": inp.index}, out.index,
                out.shape, macs)


def _depthwise(model, op):
    inp, filt, bias, out = _conv_tensors(model, op)
    o = op.options
    _, fh, fw, oc = filt.shape
    n, _, _, ic = inp.shape
    if oc % ic:
        raise _err(model, op, f"{oc} output channels not a multiple of {ic} input channels")
    ch_mult = oc // ic
    oh, ow, geometry = _conv_geometry(model, op, inp, fh, fw, out, oc)
    mults, shifts = _per_channel(model, op, inp, filt, out, oc)
    bias_v, null = _bias(model, op, bias, oc)
    lo, hi = activation_range(o["FusedActivationFunction"], out, model, op)
    case = {
        "case": f"{model.name}:{op.index}:{name_of(op)}", "family": "depthwise_conv",
        "input_dims": _dims(inp.shape), "filter_dims": {"n": 1, "h": fh, "w": fw, "c": oc},
        "output_dims": _dims(out.shape),
        "dw_conv_params": {"input_offset": -_zp(inp), "output_offset": _zp(out),
                           "ch_mult": ch_mult, **geometry, "activation": {"min": lo, "max": hi}},
        "bias_is_null": null, "weights": _weights(model, op, filt), "bias": bias_v,
        "output_mult": mults, "output_shift": shifts,
    }
    macs = n * oh * ow * oc * fh * fw
    return Step(op.index, op.op, "depthwise_conv", False, case, {"input": inp.index},
                out.index, out.shape, macs)


def _fully_connected(model, op):
    inp, filt = _tensor(model, op, 0, "input"), _tensor(model, op, 1, "weights")
    bias = _tensor(model, op, 2, "bias", required=False)
    out = model.tensors[op.outputs[0]]
    _require_int8(model, op, inp, "input")
    _require_int8(model, op, out, "output")
    _rank(model, op, filt, 2, "weights")
    if op.options.get("WeightsFormat", 0) != 0:
        raise _err(model, op, "shuffled weights format is not supported")
    units, depth = filt.shape
    if inp.size % depth:
        raise _err(model, op, f"input {inp.describe()} of {inp.size} values is not a multiple "
                              f"of the accumulation depth {depth}")
    if not 2 <= len(out.shape) <= 4 or out.shape[-1] != units:
        raise _err(model, op, f"output {out.describe()} has shape {list(out.shape)}, expected "
                              f"[..., {units}]")
    batches = out.size // units
    if batches * depth != inp.size:
        raise _err(model, op, f"input {inp.describe()} holds {inp.size} values, {batches} "
                              f"batches of depth {depth} need {batches * depth}")
    bias_v, null = _bias(model, op, bias, units)
    lo, hi = activation_range(op.options["FusedActivationFunction"], out, model, op)
    per_channel = len(filt.scale) > 1
    case = {
        "case": f"{model.name}:{op.index}:{name_of(op)}", "family": "fully_connected",
        "input_dims": {"n": batches, "h": 1, "w": 1, "c": depth},
        "filter_dims": {"n": depth, "h": 1, "w": 1, "c": units},
        "output_dims": {"n": batches, "h": 1, "w": 1, "c": units},
        "fc_params": {"input_offset": -_zp(inp), "filter_offset": -_zp(filt),
                      "output_offset": _zp(out), "activation": {"min": lo, "max": hi}},
        "bias_is_null": null, "weights": _weights(model, op, filt), "bias": bias_v,
    }
    if per_channel:
        mults, shifts = _per_channel(model, op, inp, filt, out, units)
        case["quant_params"] = {"per_channel": True}
        case["output_mult"], case["output_shift"] = mults, shifts
    else:
        # GetQuantizedConvolutionMultipler: the float product input_scale * filter_scale
        product = float(np.float32(_scale(inp) * _scale(filt)))
        if bias is not None and len(bias.scale):
            diff = abs(float(_scale(inp)) * float(_scale(filt)) - float(_scale(bias)))
            if diff / float(_scale(out)) > 0.02:
                raise _err(model, op, f"bias {bias.describe()} scale does not match "
                                      f"input_scale * filter_scale")
        try:
            q, s = quantize_multiplier(product / float(_scale(out)))
        except QuantizationError as e:
            raise _err(model, op, str(e)) from None
        case["quant_params"] = {"per_channel": False, "multiplier": q, "shift": s}
    step = Step(op.index, op.op, "fully_connected", False, case, {"input": inp.index},
                out.index, out.shape, batches * units * depth)
    if len(out.shape) > 2 and depth % 4 == 0 and _zp(filt) == 0:
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
            "conv_params": {"input_offset": -_zp(inp), "output_offset": _zp(out),
                            "stride": {"h": 1, "w": 1}, "padding": {"h": 0, "w": 0},
                            "dilation": {"h": 1, "w": 1}, "activation": {"min": lo, "max": hi}},
            "bias_is_null": null, "weights": case["weights"], "bias": bias_v,
            "output_mult": mults, "output_shift": shifts,
        }
        step.extra = {"cmsis_case": conv, "cmsis_function": "arm_convolve_1x1_s8_fast",
                      "extra_scratch": 0 if per_channel else 2 * 4 * units}
    return step


def _pool(model, op):
    inp = _tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    for t, what in ((inp, "input"), (out, "output")):
        _require_int8(model, op, t, what)
        _rank(model, op, t, 4, what)
    o = op.options
    n, ih, iw, c = inp.shape
    oh, ph = padding(o["Padding"], o["StrideH"], 1, ih, o["FilterHeight"])
    ow, pw = padding(o["Padding"], o["StrideW"], 1, iw, o["FilterWidth"])
    if out.shape != (n, oh, ow, c):
        raise _err(model, op, f"output {out.describe()} has shape {list(out.shape)}, Prepare "
                              f"computes {[n, oh, ow, c]}")
    if _scale(inp) != _scale(out) or _zp(inp) != _zp(out):
        raise _err(model, op, "input and output quantization differ (TFLM requires equal)")
    lo, hi = activation_range(o["FusedActivationFunction"], out, model, op)
    family = "avgpool" if op.op == "AVERAGE_POOL_2D" else "maxpool"
    case = {
        "case": f"{model.name}:{op.index}:{name_of(op)}", "family": family,
        "input_dims": _dims(inp.shape),
        "filter_dims": {"n": 1, "h": o["FilterHeight"], "w": o["FilterWidth"], "c": 1},
        "output_dims": _dims(out.shape),
        "pool_params": {"stride": {"h": o["StrideH"], "w": o["StrideW"]},
                        "padding": {"h": ph, "w": pw}, "activation": {"min": lo, "max": hi}},
        "tflite_padding": "SAME" if o["Padding"] == 0 else "VALID",
    }
    return Step(op.index, op.op, family, False, case, {"input": inp.index}, out.index,
                out.shape)


def _softmax(model, op):
    inp = _tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    _require_int8(model, op, inp, "input")
    _require_int8(model, op, out, "output")
    if _zp(out) != -128 or _scale(out) != np.float32(1.0 / 256):
        raise _err(model, op, f"output {out.describe()} must have zero point -128 and scale "
                              f"1/256 (TFLM int8 softmax)")
    if inp.shape != out.shape:
        raise _err(model, op, "input and output shapes differ")
    beta = float(np.float32(op.options["Beta"]))
    # PreprocessSoftmaxScaling(beta, input_scale, kScaledDiffIntegerBits = 5)
    bits = 5
    real = min(beta * float(_scale(inp)) * (1 << (31 - bits)), (1 << 31) - 1.0)
    try:
        mult, left = quantize_multiplier_greater_than_one(real)
    except QuantizationError as e:
        raise _err(model, op, str(e)) from None
    # CalculateInputRadius(5, left_shift, 31)
    radius = math.floor(1.0 * ((1 << bits) - 1) * (1 << (31 - bits)) / (1 << left))
    row = inp.shape[-1] if inp.shape else 1
    case = {"case": f"{model.name}:{op.index}:{name_of(op)}", "family": "softmax",
            "num_rows": inp.size // row, "row_size": row, "mult": mult, "shift": left,
            "diff_min": -radius}
    return Step(op.index, op.op, "softmax", False, case, {"input": inp.index}, out.index,
                out.shape)


def _binary(model, op):
    a, b = _tensor(model, op, 0, "input1"), _tensor(model, op, 1, "input2")
    out = model.tensors[op.outputs[0]]
    for t, what in ((a, "input1"), (b, "input2"), (out, "output")):
        _require_int8(model, op, t, what)
    if a.shape != b.shape or a.shape != out.shape:
        raise _err(model, op, f"broadcasting {list(a.shape)} with {list(b.shape)} is not "
                              f"supported (shapes must be equal)")
    lo, hi = activation_range(op.options["FusedActivationFunction"], out, model, op)
    inputs = {"input": a.index, "input2": b.index}
    tag = f"{model.name}:{op.index}:{name_of(op)}"
    if op.op == "ADD":
        left = 20
        twice = 2 * float(max(_scale(a), _scale(b)))
        try:
            m1, s1 = quantize_multiplier_smaller_than_one_exp(float(_scale(a)) / twice)
            m2, s2 = quantize_multiplier_smaller_than_one_exp(float(_scale(b)) / twice)
            mo, so = quantize_multiplier_smaller_than_one_exp(
                twice / ((1 << left) * float(_scale(out))))
        except QuantizationError as e:
            raise _err(model, op, str(e)) from None
        case = {"case": tag, "family": "elementwise_add",
                "input_1_offset": -_zp(a), "input_1_mult": m1, "input_1_shift": s1,
                "input_2_offset": -_zp(b), "input_2_mult": m2, "input_2_shift": s2,
                "left_shift": left, "out_offset": _zp(out), "out_mult": mo, "out_shift": so,
                "out_activation_min": lo, "out_activation_max": hi, "block_size": out.size}
        return Step(op.index, op.op, "elementwise_add", False, case, inputs, out.index,
                    out.shape)
    real = float(_scale(a)) * float(_scale(b)) / float(_scale(out))
    try:
        mo, so = quantize_multiplier(real)
    except QuantizationError as e:
        raise _err(model, op, str(e)) from None
    case = {"case": tag, "family": "elementwise_mul", "input_1_offset": -_zp(a),
            "input_2_offset": -_zp(b), "out_offset": _zp(out), "out_mult": mo, "out_shift": so,
            "out_activation_min": lo, "out_activation_max": hi, "block_size": out.size}
    return Step(op.index, op.op, "elementwise_mul", False, case, inputs, out.index, out.shape)


def _reshape(model, op):
    inp = _tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    if inp.size != out.size:
        raise _err(model, op, f"input {inp.describe()} has {inp.size} elements, output "
                              f"{out.describe()} {out.size}")
    if inp.type != out.type:
        raise _err(model, op, "input and output types differ")
    _require_int8(model, op, inp, "input")
    case = {"case": f"{model.name}:{op.index}:{name_of(op)}", "family": "reshape",
            "bytes": inp.nbytes}
    return Step(op.index, op.op, "reshape", True, case, {"input": inp.index}, out.index,
                out.shape)


def _pad(model, op):
    inp, pads = _tensor(model, op, 0, "input"), _tensor(model, op, 1, "paddings")
    out = model.tensors[op.outputs[0]]
    _require_int8(model, op, inp, "input")
    _require_int8(model, op, out, "output")
    if pads.data is None:
        raise _err(model, op, f"paddings {pads.describe()} must be constant")
    p = np.asarray(pads.data, np.int64).reshape(-1, 2)
    if len(p) != len(inp.shape) or len(inp.shape) > 4 or np.any(p < 0):
        raise _err(model, op, f"paddings {p.tolist()} do not fit input shape "
                              f"{list(inp.shape)}")
    expect = tuple(int(d + a + b) for d, (a, b) in zip(inp.shape, p))
    if expect != out.shape:
        raise _err(model, op, f"output shape {list(out.shape)}, paddings give {list(expect)}")
    if _scale(inp) != _scale(out) or _zp(inp) != _zp(out):
        raise _err(model, op, "input and output quantization differ (TFLM requires equal)")
    k = 4 - len(inp.shape)   # PadParams are extended to 4-D at the front
    shape4 = (1,) * k + tuple(inp.shape)
    p4 = [(0, 0)] * k + [tuple(int(v) for v in r) for r in p]
    case = {"case": f"{model.name}:{op.index}:{name_of(op)}", "family": "pad",
            "input_shape": list(shape4), "before": [a for a, _ in p4],
            "after": [b for _, b in p4], "pad_value": _zp(out)}
    return Step(op.index, op.op, "pad", True, case, {"input": inp.index}, out.index, out.shape)


def _concatenation(model, op):
    ins = [model.tensors[i] for i in op.inputs if i >= 0]
    out = model.tensors[op.outputs[0]]
    _require_int8(model, op, out, "output")
    axis = op.options["Axis"]
    rank = len(out.shape)
    if axis < 0:
        axis += rank
    if not 0 <= axis < rank:
        raise _err(model, op, f"axis {op.options['Axis']} out of range for rank {rank}")
    if op.options["FusedActivationFunction"] != 0:
        raise _err(model, op, "fused activation on CONCATENATION is not supported")
    total = 0
    for t in ins:
        _require_int8(model, op, t, "input")
        if len(t.shape) != rank or any(t.shape[d] != out.shape[d]
                                       for d in range(rank) if d != axis):
            raise _err(model, op, f"input {t.describe()} shape {list(t.shape)} does not "
                                  f"match output {list(out.shape)} off axis {axis}")
        if _scale(t) != _scale(out) or _zp(t) != _zp(out):
            raise _err(model, op, f"input {t.describe()} quantization differs from the "
                                  f"output's (TFLM int8 concatenation requires equal)")
        total += t.shape[axis]
    if total != out.shape[axis]:
        raise _err(model, op, f"inputs sum to {total} along axis {axis}, output has "
                              f"{out.shape[axis]}")
    outer = int(np.prod(out.shape[:axis], dtype=np.int64))
    inner = int(np.prod(out.shape[axis + 1:], dtype=np.int64))
    case = {"case": f"{model.name}:{op.index}:{name_of(op)}", "family": "concatenation",
            "outer": outer, "copy_sizes": [int(t.shape[axis]) * inner for t in ins]}
    return Step(op.index, op.op, "concatenation", True, case,
                {"inputs": [t.index for t in ins]}, out.index, out.shape)


def _mean(model, op):
    inp, axis_t = _tensor(model, op, 0, "input"), _tensor(model, op, 1, "axis")
    out = model.tensors[op.outputs[0]]
    _require_int8(model, op, inp, "input")
    _require_int8(model, op, out, "output")
    if axis_t.data is None:
        raise _err(model, op, f"axis {axis_t.describe()} must be constant")
    rank = len(inp.shape)
    axes = []
    for a in np.asarray(axis_t.data).ravel().tolist():   # ResolveAxis: dedupe, wrap
        a = a + rank if a < 0 else a
        if not 0 <= a < rank:
            raise _err(model, op, f"axis {a} out of range for rank {rank}")
        if a not in axes:
            axes.append(a)
    keep = [d for d in range(rank) if d not in axes]
    expect = tuple(1 if d in axes else inp.shape[d] for d in range(rank)) \
        if op.options["KeepDims"] else tuple(inp.shape[d] for d in keep)
    if int(np.prod(expect, dtype=np.int64)) != out.size:
        raise _err(model, op, f"output shape {list(out.shape)}, mean over {axes} gives "
                              f"{list(expect)}")
    try:
        mult, shift = quantize_multiplier(float(_scale(inp)) / float(_scale(out)))
    except QuantizationError as e:
        raise _err(model, op, str(e)) from None
    case = {"case": f"{model.name}:{op.index}:{name_of(op)}", "family": "mean",
            "input_shape": list(inp.shape), "axes": sorted(axes),
            "num_elements_in_axis": int(np.prod([inp.shape[a] for a in axes],
                                                 dtype=np.int64)),
            "input_zp": _zp(inp), "output_zp": _zp(out), "multiplier": mult, "shift": shift,
            "output_size": out.size, "scratch_bytes": 4 * out.size}
    return Step(op.index, op.op, "mean", True, case, {"input": inp.index}, out.index,
                out.shape)


def _quantize(model, op):
    inp = _tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    _require_int8(model, op, out, "output")
    if inp.shape != out.shape:
        raise _err(model, op, "input and output shapes differ")
    tag = f"{model.name}:{op.index}:{name_of(op)}"
    if inp.type == "FLOAT32":
        case = {"case": tag, "family": "quantize", "from": "FLOAT32",
                "scale": float(_scale(out)), "zero_point": _zp(out), "size": out.size}
        return Step(op.index, op.op, "quantize", True, case, {"input": inp.index}, out.index,
                    out.shape, host=True)
    _require_int8(model, op, inp, "input")
    try:
        mult, shift = quantize_multiplier(float(_scale(inp)) / float(_scale(out)))
    except QuantizationError as e:
        raise _err(model, op, str(e)) from None
    case = {"case": tag, "family": "quantize", "from": "INT8", "input_zp": _zp(inp),
            "output_zp": _zp(out), "multiplier": mult, "shift": shift, "size": out.size}
    return Step(op.index, op.op, "quantize", True, case, {"input": inp.index}, out.index,
                out.shape)


def _dequantize(model, op):
    inp = _tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    _require_int8(model, op, inp, "input")
    if out.type != "FLOAT32":
        raise _err(model, op, f"output {out.describe()} is {out.type}; only int8 -> float32 "
                              f"DEQUANTIZE is supported")
    case = {"case": f"{model.name}:{op.index}:{name_of(op)}", "family": "dequantize",
            "scale": float(_scale(inp)), "zero_point": _zp(inp), "size": inp.size}
    return Step(op.index, op.op, "dequantize", True, case, {"input": inp.index}, out.index,
                out.shape, host=True)


def name_of(op):
    return op.op


_PREPARE = {"CONV_2D": _conv, "DEPTHWISE_CONV_2D": _depthwise,
            "FULLY_CONNECTED": _fully_connected, "AVERAGE_POOL_2D": _pool,
            "MAX_POOL_2D": _pool, "SOFTMAX": _softmax, "ADD": _binary, "MUL": _binary,
            "RESHAPE": _reshape, "SQUEEZE": _reshape, "PAD": _pad,
            "CONCATENATION": _concatenation, "MEAN": _mean, "QUANTIZE": _quantize,
            "DEQUANTIZE": _dequantize}
