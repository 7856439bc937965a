"""What every operator's Prepare shares: the `Step` it returns and TFLM's helpers.

Sources (tflite-micro 90b983c): kernel_util.cc (CalculateActivationRangeQuantized),
padding.h (ComputePaddingHeightWidth), conv_common.cc / depthwise_conv_common.cc
(PopulateConvolutionQuantizationParams) and the cmsis_nn/*.cc glue that fills the CMSIS-NN
structs (input_offset = -input zero point, output_offset = output zero point).
"""
import os
from dataclasses import KW_ONLY, dataclass, field

import numpy as np
import tflite

from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.kernels.tflm.quantization_util import tflite_round
from armsim.errors import ModelError, NotSimulated

ACTIVATIONS = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6"}
# flatbuffer_conversions.cc ConvertActivation: the schema's codes 4 and 5 are TANH and
# SIGN_BIT, any other code is NONE; CalculateActivationRangeQuantized clamps only for the
# three ReLUs, every other activation gets the full range
TFLM_ACTIVATIONS = {**ACTIVATIONS, 4: "TANH", 5: "SIGN_BIT"}
_INT8_MIN, _INT8_MAX = -128, 127
#: the quantized range of each activation type (std::numeric_limits in TFLM's Prepare)
QUANTIZED_RANGE = {"INT8": (-128, 127), "INT16": (-32768, 32767)}
_INT32_MIN, _INT32_MAX = -2**31, 2**31 - 1


_TENSOR_TYPE_CODES = {v for k, v in vars(tflite.TensorType).items() if not k.startswith("_")}


def check_quantized_bias_type(model, op):
    """ParseConv2D / ParseFullyConnected convert the options' quantized_bias_type with
    ConvertTensorType, which refuses a code that is no tensor type."""
    code = op.options.get("QuantizedBiasType", 0)
    if code not in _TENSOR_TYPE_CODES:
        raise error(model, op, f"option QuantizedBiasType = {code} is no tensor type (TFLM's "
                               f"options parser refuses it)")


def fused_activation(code):
    """The activation TFLM runs for a schema code (ConvertActivation)."""
    return TFLM_ACTIVATIONS.get(code, "NONE")


@dataclass
class Step:
    """One operator ready to run: the case its kernel runs, where its operands come from,
    and what else its Prepare decided (the fields after `macs`, given by name)."""
    index: int
    op: str
    family: str                 # harness family, or the TFLM port's module (reference-only)
    case: dict
    inputs: dict                # case field ("input", "input2", "inputs") -> tensor index
    output: int                 # output tensor index
    output_shape: tuple
    macs: int = 0
    _: KW_ONLY
    # TFLM's reference kernel on every path (its Operator's run_reference), not the family's
    reference_only: bool = False
    # computed on the host, not simulated: float QUANTIZE / DEQUANTIZE (its Operator's
    # run_host), or an op TFLM's interpreter runs (`tflm_model`, for `host_reason`)
    host: bool = False
    host_reason: str = ""
    tflm_model: bytes = None
    # the CMSIS-NN paths: the case they run where it differs from `case`, and the entry
    # point TFLM's Eval calls for this layer (None: the Operator's cmsis_entry)
    cmsis_case: dict = None
    cmsis_function: str = None
    # why a CMSIS-NN-backed op runs TFLM's reference kernel here (a broadcast)
    reference_why: str = ""
    # memory: constant operands (tensor index -> array) and library tables the kernel reads
    # by name (name -> array), placed in flash; the output's element type; an op with
    # several outputs: their tensors and element counts, one buffer each
    constants: dict = field(default_factory=dict)
    tables: dict = field(default_factory=dict)
    output_dtype: str = "int8"
    outputs: list = None
    output_counts: list = None
    # the arena: Prepare's persistent buffers besides its OpData (every path, the CMSIS-NN
    # glue's only) and a scratch buffer only the CMSIS-NN glue requests
    persistent_bytes: int = 0
    cmsis_persistent_bytes: int = 0
    cmsis_scratch_bytes: int = 0


def error(model, op, msg):
    return ModelError(f"{file_name(model)}: {op.describe()}: {msg}")


def file_name(model):
    return os.path.basename(model.path)


def tensor_scale(t):
    """The per-tensor scale as the float TfLiteQuantizationParams.scale holds."""
    return np.float32(t.scale[0]) if len(t.scale) else np.float32(0.0)


def tensor_zero_point(t):
    return int(t.zero_point[0]) if len(t.zero_point) else 0


def activation_range(act, out, model=None, op=None):
    """CalculateActivationRangeQuantized for an int8 output (kernel_util.cc): the ReLUs'
    bounds quantized as zero_point + (int32)TfLiteRound(f / scale) in float, refused as TFLM
    refuses a rounded quotient outside int32; any other activation code (TANH, SIGN_BIT,
    unknown codes: ConvertActivation) is the full int8 range (an int16 output: the int16
    range, QUANTIZED_RANGE)."""
    _INT8_MIN, _INT8_MAX = QUANTIZED_RANGE.get(out.type, QUANTIZED_RANGE["INT8"])
    scale, zp = tensor_scale(out), tensor_zero_point(out)

    def quantize(f):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            tmp = tflite_round(float(np.float32(f) / scale))
        # static_cast<float>(INT32_MAX) is 2**31: TFLM's check lets 2**31 through, and x86
        # converts it to INT32_MIN
        if not float(_INT32_MIN) <= tmp <= 2.0**31:
            raise error(model, op, f"output {out.describe()}: the fused activation's bound "
                                   f"{f:g} / scale {float(scale):g} overflows int32 "
                                   f"(TFLM's CalculateActivationRangeQuantized refuses it)")
        q = _INT32_MIN if tmp == 2.0**31 else int(tmp)
        return (zp + q - _INT32_MIN) % 2**32 + _INT32_MIN          # int32 addition wraps
    name = fused_activation(act)
    if name not in ("RELU", "RELU6", "RELU_N1_TO_1"):
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


def convolution_multiplier(model, op, inp, filt, out):
    """GetQuantizedConvolutionMultipler (kernel_util.cc) and QuantizeMultiplier for per-tensor
    FULLY_CONNECTED and BATCH_MATMUL: (multiplier, shift) of input scale x filter scale / output
    scale.  The product is taken in double, as the TFLM the suite is bit-exact with computes it:
    the tflite_micro wheel (built from tflite-micro 8f6596d) widens both scales before it
    multiplies (CVTSS2SD, CVTSS2SD, MULSD in its _runtime.so), the change tflite-micro PR #1486
    proposed.  The source the measured firmware was built from (90b983c) still rounds the
    product to float first (static_cast<double>(a * b)); the multipliers then differ in the
    last bits (ad's last layer: 1462485049 in double, 1462485078 via float), which moves an
    output by 1 LSB when the accumulator sits at a rounding boundary."""
    product = float(tensor_scale(inp)) * float(tensor_scale(filt))
    if not product >= 0:
        raise error(model, op, f"input scale x {filt.describe()} scale = {product:g} is "
                               f"negative (TFLM's GetQuantizedConvolutionMultipler requires "
                               f">= 0)")
    try:
        return quantize_multiplier(product / float(tensor_scale(out)))
    except QuantizationError as e:
        raise error(model, op, str(e)) from None


def per_channel_multipliers(model, op, inp, filt, out, channels):
    """PopulateConvolutionQuantizationParams: per-channel (multiplier, shift) lists."""
    in_scale, out_scale = tensor_scale(inp), tensor_scale(out)
    scales = filt.scale
    if len(scales) not in (1, channels):
        raise error(model, op, f"{filt.describe()} has {len(scales)} scales for {channels} "
                              f"output channels")
    axis = filt.quantized_dimension
    if len(scales) > 1 and not (0 <= axis < len(filt.shape) and filt.shape[axis] == channels):
        # kernel_util.cc: TF_LITE_ENSURE_EQ(num_channels, filter->dims->data[quantized_dimension])
        raise error(model, op, f"{filt.describe()} is quantized per axis along dimension "
                              f"{axis} of shape {list(filt.shape)}, not its {channels} output "
                              f"channels")
    mults, shifts = [], []
    for c in range(channels):
        fs = float(np.float32(scales[c if len(scales) > 1 else 0]))
        eff = float(in_scale) * fs / float(out_scale)
        try:
            q, s = quantize_multiplier(eff)
        except QuantizationError as e:
            raise error(model, op, f"channel {c}: {e}") from None
        mults.append(q)
        shifts.append(s)
    return mults, shifts


def input_tensor(model, op, pos, what, required=True):
    idx = op.inputs[pos] if pos < len(op.inputs) else -1
    if idx < 0:
        if required:
            raise error(model, op, f"missing {what} (input {pos})")
        return None
    return model.tensors[idx]


def require_int8(model, op, t, what):
    if t.type != "INT8":
        raise NotSimulated(f"{what} {t.describe()} is {t.type}: armsim simulates the int8 "
                           f"kernels of this op")
    if not len(t.scale):
        raise error(model, op, f"{what} {t.describe()} has no quantization parameters")


def simulated_elem(t, others, what):
    """The element size (1, 2) of a type-generic data-movement kernel armsim simulates for
    `t` (the tensor TFLM's type switch reads) and `others` of its type (int8 or int16); other
    types run on the host."""
    if t.type not in ("INT8", "INT16") or any(o.type != t.type for o in others):
        raise NotSimulated(f"{what} {t.describe()} is {t.type}: armsim simulates int8 and "
                           f"int16")
    return 1 if t.type == "INT8" else 2


def element_type(elem):
    """The numpy name of an element of `elem` bytes: a Step's `output_dtype`."""
    return {1: "int8", 2: "int16"}[elem]


def require_int8_or_int16(model, op, t, what):
    """int8, or int16 where TFLM's kernel has an int16 variant (its type switch); returns
    the element size in bytes."""
    if t.type != "INT16":
        require_int8(model, op, t, what)
        return 1
    if not len(t.scale):
        raise error(model, op, f"{what} {t.describe()} has no quantization parameters")
    return 2


def require_rank(model, op, t, n, what):
    if len(t.shape) != n:
        raise error(model, op, f"{what} {t.describe()} has shape {list(t.shape)}, expected "
                              f"{n} dimensions")


def dims(shape):
    n, h, w, c = shape
    return {"n": int(n), "h": int(h), "w": int(w), "c": int(c)}


def bias_values(model, op, bias, channels, bias_type="INT32"):
    if bias is None:
        return [0] * channels, True
    if bias.type != bias_type or bias.data is None:
        raise error(model, op, f"bias {bias.describe()} must be a constant {bias_type} tensor")
    if bias.size != channels:
        raise error(model, op, f"bias {bias.describe()} has {bias.size} values for {channels} "
                              f"output channels")
    return [int(v) for v in bias.data.ravel()], False


def weights_values(model, op, w):
    if w.data is None:
        raise error(model, op, f"weights {w.describe()} are not constant")
    if w.type != "INT8":
        raise error(model, op, f"weights {w.describe()} are {w.type}; armsim needs int8 weights")
    if len(w.zero_point) and np.any(w.zero_point != 0) and op.op != "FULLY_CONNECTED":
        raise error(model, op, f"weights {w.describe()} have a non-zero zero point")
    return w.data.ravel().astype(np.int8)


def int4_filter(model, op, w, int16):
    """An INT4 filter's packed bytes (what the s4 kernels read; TFLM's reference unpacks
    them); refused as TFLM's Prepare refuses it: with INT16 activations ("Hybrid models are
    not supported"), or with a non-zero zero point."""
    if w.data is None:
        raise error(model, op, f"weights {w.describe()} are not constant")
    if int16:
        raise error(model, op, f"weights {w.describe()} are INT4 with INT16 activations: "
                               f"TFLM runs INT4 weights with INT8 activations only")
    if len(w.zero_point) and np.any(w.zero_point != 0):
        raise error(model, op, f"weights {w.describe()} have a non-zero zero point")
    return w.packed.tolist()


def conv_tensors(model, op):
    """CONV_2D and DEPTHWISE_CONV_2D operands: (input, filter, bias or None, output); int8
    (or 16x8: int16 with int8 weights) rank-4 activations, a rank-4 filter."""
    inp, filt = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "filter")
    bias = input_tensor(model, op, 2, "bias", required=False)
    out = model.tensors[op.outputs[0]]
    int16 = inp.type == "INT16"           # 16x8: checked by require_16x8 below
    for t, what in ((inp, "input"), (out, "output")):
        if not int16:
            require_int8(model, op, t, what)
        require_rank(model, op, t, 4, what)
    require_rank(model, op, filt, 4, "filter")
    if not filt.size:
        # CMSIS-NN's wrappers return ARM_CMSIS_NN_ARG_ERROR, which TFLM's CMSIS-NN kernels
        # only DCHECK (the output stays unwritten), while the reference CONV_2D outputs the
        # bias and the reference DEPTHWISE_CONV_2D reads fh x fw x oc weights regardless of
        # dimension 0: the paths would disagree
        raise error(model, op, f"weights {filt.describe()} have shape {list(filt.shape)}: "
                               f"an empty dimension")
    if int16:
        require_16x8(model, op, inp, out, filt)
    return inp, filt, bias, out


def conv_geometry(model, op, inp, fh, fw, out, oc):
    """Both convolutions' padding (ComputePaddingHeightWidth) and the output shape Prepare
    requires; returns (oh, ow, the params' stride/padding/dilation entries)."""
    o = op.options
    n, ih, iw, _ = inp.shape
    for filt, dilation, key in ((fh, o["DilationHFactor"], "DilationHFactor"),
                                (fw, o["DilationWFactor"], "DilationWFactor")):
        span = (filt - 1) * dilation + 1
        if span > _INT32_MAX:
            # padding.h fails on it and TFLM then silently pads 0; its kernels' dilation *
            # filter offsets overflow int
            raise error(model, op, f"option {key} = {dilation}: the dilated {filt}-tap filter "
                                   f"spans {span} pixels, beyond int32")
    oh, ph = padding(o["Padding"], o["StrideH"], o["DilationHFactor"], ih, fh)
    ow, pw = padding(o["Padding"], o["StrideW"], o["DilationWFactor"], iw, fw)
    if out.shape != (n, oh, ow, oc):
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, Prepare "
                              f"computes {[n, oh, ow, oc]}")
    return oh, ow, {"stride": {"h": o["StrideH"], "w": o["StrideW"]},
                    "padding": {"h": ph, "w": pw},
                    "dilation": {"h": o["DilationHFactor"], "w": o["DilationWFactor"]}}


def case_tag(model, op):
    """The case name of an op: model, op index and builtin name."""
    return f"{model.name}:{op.index}:{op.op}"


def binary_operands(model, op):
    """ADD / MUL / SUB operands: (input1, input2, output, activation min, max); int8, or int16
    for all three (the s16 kernels), the output shape the inputs' broadcast.  Mixed types:
    TFLM's reference kernels run them (reading each operand as the output's type), so TFLM on
    the host -- except an operand narrower than the output, which TFLM reads past the end of
    its buffer: no defined result to match, so refused.  The op's Prepare derives its
    multipliers for any shape, as TFLM's does (a broadcast then runs TFLM's reference
    broadcast kernel: `binary_step`, kernels/tflm/broadcast_binary.py)."""
    a, b = input_tensor(model, op, 0, "input1"), input_tensor(model, op, 1, "input2")
    out = model.tensors[op.outputs[0]]
    for t, what in ((a, "input1"), (b, "input2"), (out, "output")):
        if a.type != "INT16":
            require_int8(model, op, t, what)
        elif t.type != "INT16":
            if what != "output" and t.type == "INT8" and out.type == "INT16":
                raise error(model, op, f"{what} {t.describe()} is INT8 but the output is INT16: "
                                       f"TFLM's reference kernel reads it as INT16, past the "
                                       f"end of its buffer (no defined result)")
            raise NotSimulated(f"{what} {t.describe()} is {t.type} but input1 {a.describe()} "
                               f"is INT16: armsim simulates all-INT16 operands only")
        elif not len(t.scale):
            raise error(model, op, f"{what} {t.describe()} has no quantization parameters")
    if a.shape != b.shape or a.shape != out.shape:
        try:
            broadcast = tuple(np.broadcast_shapes(a.shape, b.shape))
        except ValueError:
            broadcast = None
        if broadcast != tuple(out.shape):
            # TFLM's Prepare does not compare them; its kernels then index outside a tensor
            raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, "
                                   f"not the broadcast of {list(a.shape)} and "
                                   f"{list(b.shape)}")
    lo, hi = activation_range(op.options["FusedActivationFunction"], out, model, op)
    return a, b, out, lo, hi


def binary_step(model, op, a, b, out, case):
    """The Step of an ADD / MUL whose Prepare filled `case` (family elementwise_add or _mul,
    + _s16): the CMSIS-NN family when ProcessBroadcastShapes finds no broadcast, else TFLM's
    reference broadcast kernel on every path (kernels/tflm/broadcast_binary.py), as
    cmsis_nn/add.cc and mul.cc fall back to it; constant operands are read from flash."""
    from armsim.kernels.tflm.broadcast_binary import MAX_RANK, needs_broadcast
    int16 = a.type == "INT16"
    dtype = np.int16 if int16 else np.int8
    if not needs_broadcast(a.shape, b.shape):
        case["block_size"] = out.size
        inputs = {}
        for name, t in (("input", a), ("input2", b)):
            if t.constant:                      # held in the case, placed like an operand
                case[name] = np.asarray(t.data).astype(dtype).ravel()
            else:
                inputs[name] = t.index
        return Step(op.index, op.op, case["family"], case, inputs, out.index, out.shape,
                    cmsis_function=f"arm_elementwise_{op.op.lower()}_s16" if int16 else None)
    if len(out.shape) > MAX_RANK:
        raise error(model, op, f"broadcasting {list(a.shape)} with {list(b.shape)}: TFLM's "
                               f"BroadcastBinaryOpSimple takes at most {MAX_RANK} dimensions")
    case.update(input1_shape=list(a.shape), input2_shape=list(b.shape),
                output_shape=list(out.shape), element_bytes=2 if int16 else 1)
    return Step(op.index, op.op, case["family"], case, {"inputs": [a.index, b.index]},
                out.index, out.shape, reference_only=True,
                reference_why="a broadcast: TFLM's CMSIS-NN glue falls back to the reference "
                              "kernel",
                output_dtype="int16" if int16 else "int8",
                constants={t.index: np.asarray(t.data).astype(dtype) for t in (a, b)
                           if t.constant})


def require_16x8(model, op, inp, out, weights=None):
    """The 16x8 checks of TFLM's CMSIS-NN Prepare (cmsis_nn/conv.cc, depthwise_conv.cc,
    fully_connected.cc): int16 activations need int8 weights (int16 or int4 weights with
    int16 activations are refused: fully_connected.cc "Hybrid models are not supported on
    TFLite Micro.", conv.cc / depthwise_conv.cc "Type %s (%d) not supported."), the same
    output type -- both refused by the reference kernels too, so an error -- and zero points
    0 (TF_LITE_ENSURE_EQ(input zero_point, 0), the output's): the reference kernels run a
    non-zero one, so such an op is left to TFLM on the host (NotSimulated)."""
    if out.type != inp.type:
        raise error(model, op, f"output {out.describe()} is {out.type} but input "
                              f"{inp.describe()} is {inp.type}: TFLM's Prepare requires the same "
                              f"type")
    if weights is not None and weights.type != "INT8":
        raise error(model, op, f"weights {weights.describe()} are {weights.type} with INT16 "
                              f"activations: TFLM runs 16x8 (int16 activations, int8 weights) only")
    for t, what in ((inp, "input"), (out, "output")):
        if not len(t.scale):
            raise error(model, op, f"{what} {t.describe()} has no quantization parameters")
        if tensor_zero_point(t) != 0:
            raise NotSimulated(f"{what} {t.describe()} is INT16 with zero point "
                               f"{tensor_zero_point(t)}: TFLM's CMSIS-NN int16 Prepare requires 0")


#: TensorType INT32 in the schema: the options' quantized_bias_type of an op without a bias
TENSOR_TYPE_INT32 = 2


def bias_16x8(model, op, bias, channels):
    """A 16x8 layer's bias: (values, null, is_int32_bias for CMSIS-NN, for the reference).

    An INT32 bias: TFLM's CMSIS-NN conv Prepare requests the scratch buffer only for an
    INT64 or no bias (conv.cc "CMSIS_NN allows INT64 or nullptr bias"), the reference kernels
    accumulate in int32 for it: left to TFLM on the host.  No bias: CMSIS-NN runs the int32
    path (convolve_wrapper<int32_t>), the reference the int64 one unless the options'
    quantized_bias_type is INT32 (conv.cc requires_int32_accum)."""
    if bias is not None and bias.type == "INT32":
        raise NotSimulated(f"bias {bias.describe()} is INT32 with INT16 activations: only TFLM's "
                           f"reference kernel runs it")
    values, null = bias_values(model, op, bias, channels, "INT64")
    reference_int32 = null and op.options.get("QuantizedBiasType", 0) == TENSOR_TYPE_INT32
    return values, null, null, reference_int32
