"""Build small int8 ``.tflite`` models from numpy, without TensorFlow.

The flatbuffer is written with the ``tflite`` package's generated builder functions
(``tflite.ModelStart``, ``tflite.TensorAddQuantization``, ...), schema version 3, laid out
the way TensorFlow's converter lays a model out: buffer 0 is the empty sentinel, every
tensor has its own buffer, constant data is 16-byte aligned, operator codes carry both the
deprecated int8 code and the int32 code, with the op version an int8 model of that op gets
from the converter.

Usage::

    g = Graph(seed=0)
    x = g.input((1, 8, 8, 3), scale=0.02, zero_point=-1)
    y = g.conv2d(x, 8, (3, 3), padding="SAME", activation="RELU")
    y = g.softmax(g.fully_connected(g.reshape(y, (1, -1)), 10))
    g.output(y)
    model_bytes = g.build()

Layer methods return tensor indices.  Weights and biases may be given (int8 / int32 numpy
arrays in TFLite's layouts: conv OHWI, depthwise 1HW(C*M), fully-connected (out, in)) or
are drawn from the graph's seeded generator.  Output quantization is a parameter; when
omitted it is chosen so a random input gives outputs spread over the int8 range (the
estimate is documented on `_spread_scale`).
"""
import functools
import math

import flatbuffers
import numpy as np
import tflite

from armsim import operators
from armsim.errors import ModelGenError

SCHEMA_VERSION = 3

_DTYPES = {  # numpy dtype name -> (TensorType, numpy dtype)
    "float32": (tflite.TensorType.FLOAT32, np.float32),
    "int32": (tflite.TensorType.INT32, np.int32),
    "uint8": (tflite.TensorType.UINT8, np.uint8),
    "int64": (tflite.TensorType.INT64, np.int64),
    "int16": (tflite.TensorType.INT16, np.int16),
    "int8": (tflite.TensorType.INT8, np.int8),
    "int4": (tflite.TensorType.INT4, np.int8),   # values -8..7, written packed (`_packed_int4`)
}
#: the weight types a MAC layer (conv2d, depthwise_conv2d, fully_connected) can be given, with
#: the random weights' range (TFLite's symmetric int4 / int8 quantization) and their std
_WEIGHT_TYPES = {"int8": (127, 74), "int4": (7, 4.3)}

_ACTIVATIONS = {"NONE": tflite.ActivationFunctionType.NONE,
                "RELU": tflite.ActivationFunctionType.RELU,
                "RELU_N1_TO_1": tflite.ActivationFunctionType.RELU_N1_TO_1,
                "RELU6": tflite.ActivationFunctionType.RELU6}
_PADDINGS = {"SAME": tflite.Padding.SAME, "VALID": tflite.Padding.VALID}

_BO = tflite.BuiltinOperator
_OPT = tflite.BuiltinOptions
#: the output quantization TFLM's Prepare requires (LOGISTIC) or writes (TANH), by type
_SIGMOID_OUT = {("LOGISTIC", "int8"): (1 / 256, -128), ("LOGISTIC", "int16"): (2**-15, 0),
                ("TANH", "int8"): (1 / 128, 0), ("TANH", "int16"): (2**-15, 0)}

class _Tensor:
    __slots__ = ("name", "shape", "dtype", "scale", "zero_point", "axis", "data", "is_variable")

    def __init__(self, name, shape, dtype, scale, zero_point, axis, data):
        self.name, self.shape, self.dtype = name, tuple(int(s) for s in shape), dtype
        self.scale, self.zero_point, self.axis, self.data = scale, zero_point, axis, data
        self.is_variable = False       # a variable tensor (SVDF's state): TFLM keeps it


class _Op:
    __slots__ = ("code", "inputs", "outputs", "options_type", "options")

    def __init__(self, code, inputs, outputs, options_type, options):
        self.code, self.inputs, self.outputs = code, list(inputs), list(outputs)
        self.options_type, self.options = options_type, options


def _out_size(size, filt, stride, dilation, padding):
    """TFLite's ComputeOutSize (kernels/padding.h)."""
    effective = (filt - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    return (size - effective + stride) // stride


class Graph:
    """One subgraph being built; `build()` returns the model's bytes."""

    def __init__(self, seed=0, description="armsim.modelgen"):
        self.rng = np.random.default_rng(seed)
        self.description = description
        self.versions = {}      # builtin code -> the version to write, else the converter's
        self.tensors = []
        self.ops = []
        self.inputs = []
        self.outputs = []

    # --- tensors -------------------------------------------------------------------------

    def tensor(self, shape, dtype="int8", scale=None, zero_point=None, axis=0, data=None,
               name=None):
        """Add a tensor; `scale`/`zero_point` scalars (per-tensor) or sequences
        (per-channel along `axis`); `data` makes it a constant.  Returns its index."""
        if dtype not in _DTYPES:
            raise ModelGenError(f"unsupported dtype {dtype!r}")
        if data is not None:
            if dtype == "int4" and (np.min(data) < -8 or np.max(data) > 7):
                raise ModelGenError(f"{name or 'tensor'}: int4 data outside -8..7")
            data = np.ascontiguousarray(np.asarray(data).astype(_DTYPES[dtype][1], copy=False))
            if tuple(data.shape) != tuple(shape):
                data = data.reshape(shape)
        if any(int(s) <= 0 for s in shape):
            raise ModelGenError(f"tensor shape {tuple(shape)} has a non-positive dimension")
        index = len(self.tensors)
        self.tensors.append(_Tensor(name or f"t{index}", shape, dtype, scale, zero_point, axis,
                                    data))
        return index

    def input(self, shape, scale=0.02, zero_point=0, dtype="int8", name=None):
        t = self.tensor(shape, dtype, None if dtype == "float32" else scale,
                        None if dtype == "float32" else zero_point,
                        name=name or f"input_{len(self.inputs)}")
        self.inputs.append(t)
        return t

    def output(self, *tensors):
        self.outputs.extend(tensors)
        return tensors[0] if len(tensors) == 1 else tensors

    def __getattr__(self, name):
        """`Graph.<builtin in lower case>`: the layer its Operator builds (`Operator.build`)."""
        operator = None if name.startswith("_") else operators.get(name.upper())
        if operator is None or operator.build is None:
            raise AttributeError(f"Graph has no layer {name!r}")
        return functools.partial(operator.build, self)

    def shape(self, t):
        return self.tensors[t].shape

    def quant(self, t):
        """(scale, zero_point) of a per-tensor quantized tensor."""
        q = self.tensors[t]
        return q.scale, q.zero_point

    def _activation_out(self, shape, scale, zero_point, name=None, like=None):
        """An activation tensor of `like`'s type (int8 or int16 for 16x8 layers), else int8."""
        dtype = self.tensors[like].dtype if like is not None else "int8"
        return self.tensor(shape, dtype, scale, zero_point, name=name)

    def _op(self, code, inputs, outputs, options_type=_OPT.NONE, options=None):
        self.ops.append(_Op(code, inputs, outputs, options_type, options))
        return outputs[0] if len(outputs) == 1 else outputs

    # --- weights -------------------------------------------------------------------------

    def _random_weights(self, shape, weight_type="int8"):
        bound = _WEIGHT_TYPES[weight_type][0]
        return self.rng.integers(-bound, bound + 1, size=shape, dtype=np.int64).astype(np.int8)

    def _random_bias(self, n, fan_in, dtype="int32"):
        """int32 bias, or int64 for 16x8 layers (int16 inputs: 256 times larger values)."""
        bound = 64 * 64 * max(1, int(math.sqrt(fan_in))) * (256 if dtype == "int64" else 1)
        return self.rng.integers(-bound, bound + 1, size=n, dtype=np.int64).astype(dtype)

    def _weight_scales(self, weight_scale, channels, per_channel):
        if weight_scale is None:
            if per_channel:
                weight_scale = self.rng.uniform(0.004, 0.012, size=channels)
            else:
                weight_scale = 0.008
        ws = np.atleast_1d(np.asarray(weight_scale, np.float64))
        if ws.size not in (1, channels):
            raise ModelGenError(f"{ws.size} weight scales for {channels} channels")
        return ws

    def _spread_scale(self, x, weight_scales, fan_in, weight_type="int8"):
        """Output scale for a MAC layer: int8 inputs and weights spread over their range
        (std ~74 each; int4 weights ~4.3) make an accumulator of std ~74*74*sqrt(fan_in);
        dividing it into ~40 output steps keeps most outputs unsaturated."""
        in_scale = self.tensors[x].scale
        w_std = _WEIGHT_TYPES[weight_type][1]
        if self.tensors[x].dtype == "int16":   # 16x8: int16 inputs (std ~18900), ~10000 steps
            return float(in_scale * float(np.mean(weight_scales)) * 18900 * w_std
                         * math.sqrt(fan_in) / 10000)
        return float(in_scale * float(np.mean(weight_scales)) * 74 * w_std * math.sqrt(fan_in)
                     / 40)

    def calibrated(self, x, fan_in, channels=None, out_scale=0.05):
        """`weight_scale` and `out_scale` arguments for a MAC layer on `x` with random
        weights whose outputs spread over int8 at `out_scale` (`_spread_scale` solved for
        the weight scale), so real-valued scales stay put, as in a trained model, instead of
        growing layer by layer; per-channel scales (`channels` given) vary by +-25 %."""
        base = out_scale / self._spread_scale(x, [1.0], fan_in)
        ws = base * self.rng.uniform(0.75, 1.25, channels) if channels else base
        return {"weight_scale": ws, "out_scale": out_scale}

    def _mac_layer(self, x, weights, weight_shape, bias, out_channels, fan_in, weight_scale,
                   per_channel, weight_axis, use_bias, name, weight_type="int8"):
        if weight_type not in _WEIGHT_TYPES:
            raise ModelGenError(f"{name}: weight_type must be one of {', '.join(_WEIGHT_TYPES)}")
        if weights is None:
            weights = self._random_weights(weight_shape, weight_type)
        weights = np.asarray(weights)
        if tuple(weights.shape) != tuple(weight_shape):
            raise ModelGenError(f"{name}: weights shape {weights.shape}, expected {weight_shape}")
        ws = self._weight_scales(weight_scale, out_channels, per_channel)
        n = ws.size
        w = self.tensor(weight_shape, weight_type, ws.tolist() if n > 1 else float(ws[0]),
                        [0] * n if n > 1 else 0, axis=weight_axis, data=weights,
                        name=f"{name}/weights")
        b = -1
        if use_bias:
            bias_dtype = "int64" if self.tensors[x].dtype == "int16" else "int32"
            if bias is None:
                bias = self._random_bias(out_channels, fan_in, bias_dtype)
            bias = np.asarray(bias)
            if bias.shape != (out_channels,):
                raise ModelGenError(f"{name}: bias shape {bias.shape}, expected ({out_channels},)")
            in_scale = self.tensors[x].scale
            bs = (in_scale * ws).tolist()
            b = self.tensor((out_channels,), bias_dtype, bs if n > 1 else bs[0],
                            [0] * n if n > 1 else 0, axis=0, data=bias, name=f"{name}/bias")
        return w, b, ws

    # --- layers --------------------------------------------------------------------------

    def conv2d(self, x, out_channels, kernel=(3, 3), stride=(1, 1), padding="SAME",
               dilation=(1, 1), activation="NONE", weights=None, bias=None,
               weight_scale=None, per_channel=True, use_bias=True, out_scale=None,
               out_zero_point=0, weight_type="int8", name=None):
        """CONV_2D; weights OHWI int8, or `weight_type="int4"` (TFLite INT4, packed two per
        byte), per-channel scales along axis 0 by default."""
        name = name or f"conv2d_{len(self.ops)}"
        n, h, w_, c = self._nhwc(x, name)
        kh, kw = _pair(kernel)
        sh, sw = _pair(stride)
        dh, dw = _pair(dilation)
        self._check_options(name, padding, activation)
        oh, ow = _out_size(h, kh, sh, dh, padding), _out_size(w_, kw, sw, dw, padding)
        if oh <= 0 or ow <= 0:
            raise ModelGenError(f"{name}: kernel larger than the input")
        wt, b, ws = self._mac_layer(x, weights, (out_channels, kh, kw, c), bias, out_channels,
                                    kh * kw * c, weight_scale, per_channel, 0, use_bias, name,
                                    weight_type)
        if out_scale is None:
            out_scale = self._spread_scale(x, ws, kh * kw * c, weight_type)
        y = self._activation_out((n, oh, ow, out_channels), out_scale, out_zero_point, name,
                                 like=x)
        opts = (tflite.Conv2DOptionsStart, [
            (tflite.Conv2DOptionsAddPadding, _PADDINGS[padding]),
            (tflite.Conv2DOptionsAddStrideW, sw), (tflite.Conv2DOptionsAddStrideH, sh),
            (tflite.Conv2DOptionsAddDilationWFactor, dw),
            (tflite.Conv2DOptionsAddDilationHFactor, dh),
            (tflite.Conv2DOptionsAddFusedActivationFunction, _ACTIVATIONS[activation])],
            tflite.Conv2DOptionsEnd)
        return self._op(_BO.CONV_2D, [x, wt, b], [y], _OPT.Conv2DOptions, opts)

    def depthwise_conv2d(self, x, kernel=(3, 3), depth_multiplier=1, stride=(1, 1),
                         padding="SAME", dilation=(1, 1), activation="NONE", weights=None,
                         bias=None, weight_scale=None, per_channel=True, use_bias=True,
                         out_scale=None, out_zero_point=0, weight_type="int8", name=None):
        """DEPTHWISE_CONV_2D; weights (1, KH, KW, C*depth_multiplier) int8 (or int4, packed),
        scales along 3."""
        name = name or f"depthwise_conv2d_{len(self.ops)}"
        n, h, w_, c = self._nhwc(x, name)
        kh, kw = _pair(kernel)
        sh, sw = _pair(stride)
        dh, dw = _pair(dilation)
        self._check_options(name, padding, activation)
        oc = c * depth_multiplier
        oh, ow = _out_size(h, kh, sh, dh, padding), _out_size(w_, kw, sw, dw, padding)
        if oh <= 0 or ow <= 0:
            raise ModelGenError(f"{name}: kernel larger than the input")
        wt, b, ws = self._mac_layer(x, weights, (1, kh, kw, oc), bias, oc, kh * kw,
                                    weight_scale, per_channel, 3, use_bias, name, weight_type)
        if out_scale is None:
            out_scale = self._spread_scale(x, ws, kh * kw, weight_type)
        y = self._activation_out((n, oh, ow, oc), out_scale, out_zero_point, name, like=x)
        opts = (tflite.DepthwiseConv2DOptionsStart, [
            (tflite.DepthwiseConv2DOptionsAddPadding, _PADDINGS[padding]),
            (tflite.DepthwiseConv2DOptionsAddStrideW, sw),
            (tflite.DepthwiseConv2DOptionsAddStrideH, sh),
            (tflite.DepthwiseConv2DOptionsAddDepthMultiplier, depth_multiplier),
            (tflite.DepthwiseConv2DOptionsAddDilationWFactor, dw),
            (tflite.DepthwiseConv2DOptionsAddDilationHFactor, dh),
            (tflite.DepthwiseConv2DOptionsAddFusedActivationFunction, _ACTIVATIONS[activation])],
            tflite.DepthwiseConv2DOptionsEnd)
        return self._op(_BO.DEPTHWISE_CONV_2D, [x, wt, b], [y], _OPT.DepthwiseConv2DOptions,
                        opts)

    def fully_connected(self, x, units, activation="NONE", weights=None, bias=None,
                        weight_scale=None, per_channel=False, use_bias=True,
                        keep_num_dims=False, out_scale=None, out_zero_point=0,
                        weight_type="int8", name=None):
        """FULLY_CONNECTED; weights (units, depth) int8 (or int4, packed), per-tensor scale
        by default."""
        name = name or f"fully_connected_{len(self.ops)}"
        shape = self.shape(x)
        self._check_options(name, "VALID", activation)
        depth = shape[-1]
        batches = int(np.prod(shape)) // depth
        wt, b, ws = self._mac_layer(x, weights, (units, depth), bias, units, depth,
                                    weight_scale, per_channel, 0, use_bias, name, weight_type)
        if out_scale is None:
            out_scale = self._spread_scale(x, ws, depth, weight_type)
        out_shape = tuple(shape[:-1]) + (units,) if keep_num_dims else (batches, units)
        y = self._activation_out(out_shape, out_scale, out_zero_point, name, like=x)
        opts = (tflite.FullyConnectedOptionsStart, [
            (tflite.FullyConnectedOptionsAddFusedActivationFunction, _ACTIVATIONS[activation]),
            (tflite.FullyConnectedOptionsAddKeepNumDims, bool(keep_num_dims))],
            tflite.FullyConnectedOptionsEnd)
        return self._op(_BO.FULLY_CONNECTED, [x, wt, b], [y], _OPT.FullyConnectedOptions, opts)

    def _pool(self, code, x, pool, stride, padding, activation, name):
        n, h, w_, c = self._nhwc(x, name)
        ph, pw = _pair(pool)
        sh, sw = _pair(stride if stride is not None else pool)
        self._check_options(name, padding, activation)
        oh, ow = _out_size(h, ph, sh, 1, padding), _out_size(w_, pw, sw, 1, padding)
        if oh <= 0 or ow <= 0:
            raise ModelGenError(f"{name}: pool larger than the input")
        scale, zp = self.quant(x)
        y = self._activation_out((n, oh, ow, c), scale, zp, name, like=x)
        opts = (tflite.Pool2DOptionsStart, [
            (tflite.Pool2DOptionsAddPadding, _PADDINGS[padding]),
            (tflite.Pool2DOptionsAddStrideW, sw), (tflite.Pool2DOptionsAddStrideH, sh),
            (tflite.Pool2DOptionsAddFilterWidth, pw), (tflite.Pool2DOptionsAddFilterHeight, ph),
            (tflite.Pool2DOptionsAddFusedActivationFunction, _ACTIVATIONS[activation])],
            tflite.Pool2DOptionsEnd)
        return self._op(code, [x], [y], _OPT.Pool2DOptions, opts)

    def average_pool2d(self, x, pool=(2, 2), stride=None, padding="VALID", activation="NONE",
                       name=None):
        """AVERAGE_POOL_2D; output keeps the input's quantization (TFLM requires it)."""
        return self._pool(_BO.AVERAGE_POOL_2D, x, pool, stride, padding, activation,
                          name or f"average_pool2d_{len(self.ops)}")

    def max_pool2d(self, x, pool=(2, 2), stride=None, padding="VALID", activation="NONE",
                   name=None):
        return self._pool(_BO.MAX_POOL_2D, x, pool, stride, padding, activation,
                          name or f"max_pool2d_{len(self.ops)}")

    def l2_pool2d(self, x, pool=(2, 2), stride=None, padding="VALID", activation="NONE",
                  name=None):
        """L2_POOL_2D (TFLM runs float32 only: an int8 `x` makes a model it refuses)."""
        return self._pool(_BO.L2_POOL_2D, x, pool, stride, padding, activation,
                          name or f"l2_pool2d_{len(self.ops)}")

    def softmax(self, x, beta=1.0, out_dtype=None, name=None):
        """SOFTMAX with the output quantization TFLM requires: int8 scale 1/256, zero point
        -128; int16 (an int16 input, or `out_dtype="int16"` for int8 -> int16) scale 1/32768,
        zero point 0, or from int8 scale 1/65536, zero point -32768."""
        out_dtype = out_dtype or self.tensors[x].dtype
        if out_dtype == "int16":
            int8_in = self.tensors[x].dtype == "int8"
            y = self.tensor(self.shape(x), "int16", 1.0 / (65536 if int8_in else 32768),
                            -32768 if int8_in else 0, name=name)
        else:
            y = self._activation_out(self.shape(x), 1.0 / 256, -128, name)
        opts = (tflite.SoftmaxOptionsStart, [(tflite.SoftmaxOptionsAddBeta, float(beta))],
                tflite.SoftmaxOptionsEnd)
        return self._op(_BO.SOFTMAX, [x], [y], _OPT.SoftmaxOptions, opts)

    def _binary_shape(self, a, b, name):
        sa, sb = self.shape(a), self.shape(b)
        try:
            return tuple(np.broadcast_shapes(sa, sb))
        except ValueError:
            raise ModelGenError(f"{name}: shapes {sa} and {sb} do not broadcast") from None

    def add(self, a, b, activation="NONE", out_scale=None, out_zero_point=0, name=None):
        """ADD of two int8 (or int16: the output takes `a`'s type) tensors (broadcasting
        allowed)."""
        name = name or f"add_{len(self.ops)}"
        self._check_options(name, "VALID", activation)
        shape = self._binary_shape(a, b, name)
        if out_scale is None:
            out_scale = 2 * max(self.quant(a)[0], self.quant(b)[0])
        y = self._activation_out(shape, out_scale, out_zero_point, name, like=a)
        opts = (tflite.AddOptionsStart,
                [(tflite.AddOptionsAddFusedActivationFunction, _ACTIVATIONS[activation])],
                tflite.AddOptionsEnd)
        return self._op(_BO.ADD, [a, b], [y], _OPT.AddOptions, opts)

    def mul(self, a, b, activation="NONE", out_scale=None, out_zero_point=0, name=None):
        """MUL of two int8 (or int16: the output takes `a`'s type) tensors (broadcasting
        allowed)."""
        name = name or f"mul_{len(self.ops)}"
        self._check_options(name, "VALID", activation)
        shape = self._binary_shape(a, b, name)
        if out_scale is None:
            out_scale = self.quant(a)[0] * self.quant(b)[0] * 74 * 74 / 40
        y = self._activation_out(shape, out_scale, out_zero_point, name, like=a)
        opts = (tflite.MulOptionsStart,
                [(tflite.MulOptionsAddFusedActivationFunction, _ACTIVATIONS[activation])],
                tflite.MulOptionsEnd)
        return self._op(_BO.MUL, [a, b], [y], _OPT.MulOptions, opts)

    def prelu(self, x, alpha, alpha_scale=0.01, alpha_zero_point=0, out_scale=None,
              out_zero_point=0, name=None):
        """PRELU of `x` (int8, or int16: the output takes x's type) with `alpha`: a tensor
        index (e.g. a model input), or int8 values made a constant in (alpha_scale,
        alpha_zero_point); it broadcasts to x."""
        name = name or f"prelu_{len(self.ops)}"
        if not isinstance(alpha, (int, np.integer)):
            values = np.asarray(alpha)
            alpha = self.tensor(values.shape, "int8", alpha_scale, alpha_zero_point,
                                data=values, name=f"{name}/alpha")
        shape = self._binary_shape(x, alpha, name)
        if out_scale is None:
            out_scale = self.quant(x)[0]
        y = self.tensor(shape, self.tensors[x].dtype, out_scale, out_zero_point, name=name)
        return self._op(_BO.PRELU, [x, alpha], [y])

    def squared_difference(self, a, b, out_scale=None, out_zero_point=0, name=None):
        """SQUARED_DIFFERENCE of two int8 (or int16: the output takes their type) tensors
        (broadcasting allowed)."""
        name = name or f"squared_difference_{len(self.ops)}"
        shape = self._binary_shape(a, b, name)
        if out_scale is None:
            out_scale = (2 * max(self.quant(a)[0], self.quant(b)[0])) ** 2 * 64
        y = self.tensor(shape, self.tensors[a].dtype, out_scale, out_zero_point, name=name)
        opts = (tflite.SquaredDifferenceOptionsStart, [], tflite.SquaredDifferenceOptionsEnd)
        return self._op(_BO.SQUARED_DIFFERENCE, [a, b], [y], _OPT.SquaredDifferenceOptions,
                        opts)

    def reshape(self, x, new_shape, shape_tensor=True, shape_option=True, name=None):
        """RESHAPE (one -1 allowed); the new shape as an int32 input tensor like the
        converter emits, and also in ReshapeOptions unless `shape_option` is False (the
        MLIR converter leaves the options out)."""
        size = int(np.prod(self.shape(x)))
        new_shape = list(new_shape)
        if new_shape.count(-1) == 1:
            known = int(np.prod([d for d in new_shape if d != -1]))
            new_shape[new_shape.index(-1)] = size // known
        if int(np.prod(new_shape)) != size:
            raise ModelGenError(f"reshape of {self.shape(x)} to {tuple(new_shape)}")
        scale, zp = self.quant(x)
        y = self.tensor(new_shape, self.tensors[x].dtype, scale, zp, name=name)
        inputs = [x]
        if shape_tensor:
            inputs.append(self.tensor((len(new_shape),), "int32",
                                      data=np.array(new_shape, np.int32),
                                      name=f"{self.tensors[y].name}/shape"))
        if not shape_option:
            return self._op(_BO.RESHAPE, inputs, [y])
        opts = (tflite.ReshapeOptionsStart,
                [(tflite.ReshapeOptionsAddNewShape, ("int32", new_shape))],
                tflite.ReshapeOptionsEnd)
        return self._op(_BO.RESHAPE, inputs, [y], _OPT.ReshapeOptions, opts)

    def squeeze(self, x, dims=(), name=None):
        shape = self.shape(x)
        dims = [d % len(shape) for d in dims] or [i for i, s in enumerate(shape) if s == 1]
        if any(shape[d] != 1 for d in dims):
            raise ModelGenError(f"squeeze of dims {dims} of {shape}")
        out = [s for i, s in enumerate(shape) if i not in dims]
        scale, zp = self.quant(x)
        y = self.tensor(out, self.tensors[x].dtype, scale, zp, name=name)
        opts = (tflite.SqueezeOptionsStart,
                [(tflite.SqueezeOptionsAddSqueezeDims, ("int32", dims))],
                tflite.SqueezeOptionsEnd)
        return self._op(_BO.SQUEEZE, [x], [y], _OPT.SqueezeOptions, opts)

    def _reducer(self, code, x, axes, keep_dims, out_scale, out_zero_point, name,
                 axes_dtype="int32"):
        """A reducer op over `axes` (an `axes_dtype` constant input, kept as given: negative
        and repeated axes reach the op), ReducerOptions.keep_dims."""
        shape = self.shape(x)
        resolved = {a % len(shape) for a in axes} if len(shape) else set()
        out = [1 if i in resolved else s for i, s in enumerate(shape)] if keep_dims else \
            [s for i, s in enumerate(shape) if i not in resolved]
        tensor = self.tensors[x]
        scale, zp = self.quant(x)
        y = self.tensor(out, tensor.dtype, scale if out_scale is None else out_scale,
                        zp if out_zero_point is None else out_zero_point, name=name)
        ax = self.tensor((len(axes),), axes_dtype, data=np.array(axes, _DTYPES[axes_dtype][1]),
                         name=f"{self.tensors[y].name}/axes")
        opts = (tflite.ReducerOptionsStart, [(tflite.ReducerOptionsAddKeepDims, bool(keep_dims))],
                tflite.ReducerOptionsEnd)
        return self._op(code, [x, ax], [y], _OPT.ReducerOptions, opts)

    def mean(self, x, axes=(1, 2), keep_dims=True, out_scale=None, out_zero_point=None,
             name=None, axes_dtype="int32"):
        """MEAN over `axes`; the output takes the input's type and, unless given, its
        quantization."""
        return self._reducer(_BO.MEAN, x, axes, keep_dims, out_scale, out_zero_point, name,
                             axes_dtype)

    def sum(self, x, axes=(1, 2), keep_dims=True, out_scale=None, out_zero_point=None,
            name=None, axes_dtype="int32"):
        """SUM over `axes` (as `mean`)."""
        return self._reducer(_BO.SUM, x, axes, keep_dims, out_scale, out_zero_point, name,
                             axes_dtype)

    def reduce_max(self, x, axes=(1, 2), keep_dims=True, out_scale=None, out_zero_point=None,
                   name=None, axes_dtype="int32"):
        """REDUCE_MAX over `axes` (as `mean`; TFLM requires the input's quantization)."""
        return self._reducer(_BO.REDUCE_MAX, x, axes, keep_dims, out_scale, out_zero_point,
                             name, axes_dtype)

    def l2_normalization(self, x, activation="NONE", out_scale=1 / 128, out_zero_point=0,
                         name=None):
        """L2_NORMALIZATION over the last dim (TFLM's int8 kernel writes 1/128-scale values,
        zero point 0: the default output quantization)."""
        y = self.tensor(self.shape(x), self.tensors[x].dtype, out_scale, out_zero_point,
                        name=name)
        opts = (tflite.L2NormOptionsStart,
                [(tflite.L2NormOptionsAddFusedActivationFunction, _ACTIVATIONS[activation])],
                tflite.L2NormOptionsEnd)
        return self._op(_BO.L2_NORMALIZATION, [x], [y], _OPT.L2NormOptions, opts)

    def log_softmax(self, x, out_scale=16 / 256, out_zero_point=127, name=None):
        """LOG_SOFTMAX over the last dim (TFLM's int8 Prepare requires the output scale
        16/256 and zero point 127: the defaults)."""
        y = self.tensor(self.shape(x), self.tensors[x].dtype, out_scale, out_zero_point,
                        name=name)
        opts = (tflite.LogSoftmaxOptionsStart, [], tflite.LogSoftmaxOptionsEnd)
        return self._op(_BO.LOG_SOFTMAX, [x], [y], _OPT.LogSoftmaxOptions, opts)

    def pad(self, x, paddings, name=None):
        """PAD with zero (the input's zero point) by `paddings` [[before, after]] per dim."""
        shape = self.shape(x)
        paddings = np.asarray(paddings, np.int32).reshape(len(shape), 2)
        out = [s + int(p[0]) + int(p[1]) for s, p in zip(shape, paddings)]
        scale, zp = self.quant(x)
        y = self.tensor(out, self.tensors[x].dtype, scale, zp, name=name)
        p = self.tensor((len(shape), 2), "int32", data=paddings,
                        name=f"{self.tensors[y].name}/paddings")
        opts = (tflite.PadOptionsStart, [], tflite.PadOptionsEnd)
        return self._op(_BO.PAD, [x, p], [y], _OPT.PadOptions, opts)

    def mirror_pad(self, x, paddings, mode="REFLECT", paddings_dtype="int32", name=None):
        """MIRROR_PAD by `paddings` [[before, after]] per dim (a constant of
        `paddings_dtype`, int32 or int64), mode REFLECT or SYMMETRIC."""
        shape = self.shape(x)
        paddings = np.asarray(paddings, np.int64).reshape(len(shape), 2)
        out = [s + int(p[0]) + int(p[1]) for s, p in zip(shape, paddings)]
        scale, zp = self.quant(x)
        y = self.tensor(out, "int8", scale, zp, name=name)
        p = self.tensor((len(shape), 2), paddings_dtype, data=paddings,
                        name=f"{self.tensors[y].name}/paddings")
        opts = (tflite.MirrorPadOptionsStart,
                [(tflite.MirrorPadOptionsAddMode, getattr(tflite.MirrorPadMode, mode))],
                tflite.MirrorPadOptionsEnd)
        return self._op(_BO.MIRROR_PAD, [x, p], [y], _OPT.MirrorPadOptions, opts)

    def resize(self, x, size, method="NEAREST_NEIGHBOR", align_corners=False,
               half_pixel_centers=False, name=None):
        """RESIZE_NEAREST_NEIGHBOR or RESIZE_BILINEAR (`method`) of an NHWC `x` to `size`
        (height, width; an int32 constant input), output quantized as the input."""
        n, _, _, c = self.shape(x)
        scale, zp = self.quant(x)
        y = self.tensor((n, size[0], size[1], c), self.tensors[x].dtype, scale, zp, name=name)
        s = self.tensor((2,), "int32", data=np.array(size, np.int32),
                        name=f"{self.tensors[y].name}/size")
        table = "ResizeNearestNeighborOptions" if method == "NEAREST_NEIGHBOR" else \
            "ResizeBilinearOptions"
        start, end = (getattr(tflite, f"{table}{part}") for part in ("Start", "End"))
        opts = (start, [(getattr(tflite, f"{table}AddAlignCorners"), bool(align_corners)),
                        (getattr(tflite, f"{table}AddHalfPixelCenters"),
                         bool(half_pixel_centers))], end)
        return self._op(getattr(_BO, f"RESIZE_{method}"), [x, s], [y], getattr(_OPT, table),
                        opts)

    def batch_to_space_nd(self, x, block_shape, crops, name=None):
        """BATCH_TO_SPACE_ND of an NHWC (or NHC: one block and crop row) `x`: `block_shape`
        and `crops` [[begin, end]] per spatial dim, int32 constant inputs."""
        return self._batch_space(x, block_shape, crops, False, name)

    def space_to_batch_nd(self, x, block_shape, paddings, name=None):
        """SPACE_TO_BATCH_ND of an NHWC (or NHC) `x`: `block_shape` and `paddings`
        [[before, after]] per spatial dim, int32 constant inputs."""
        return self._batch_space(x, block_shape, paddings, True, name)

    def _batch_space(self, x, block_shape, margins, to_batch, name):
        shape = list(self.shape(x))
        block = np.asarray(block_shape, np.int32).reshape(-1)
        margins = np.asarray(margins, np.int32).reshape(len(block), 2)
        batch, spatial = shape[0], shape[1:1 + len(block)]
        if to_batch:
            out = [batch * int(np.prod(block))] + [
                (s + int(m.sum())) // int(k) for s, m, k in zip(spatial, margins, block)]
        else:
            out = [batch // int(np.prod(block))] + [
                s * int(k) - int(m.sum()) for s, m, k in zip(spatial, margins, block)]
        scale, zp = self.quant(x)
        y = self.tensor(out + shape[1 + len(block):], self.tensors[x].dtype, scale, zp,
                        name=name)
        b = self.tensor(block.shape, "int32", data=block,
                        name=f"{self.tensors[y].name}/block_shape")
        m = self.tensor(margins.shape, "int32", data=margins,
                        name=f"{self.tensors[y].name}/{'paddings' if to_batch else 'crops'}")
        if to_batch:
            return self._op(_BO.SPACE_TO_BATCH_ND, [x, b, m], [y], _OPT.SpaceToBatchNDOptions,
                            (tflite.SpaceToBatchNDOptionsStart, [],
                             tflite.SpaceToBatchNDOptionsEnd))
        return self._op(_BO.BATCH_TO_SPACE_ND, [x, b, m], [y], _OPT.BatchToSpaceNDOptions,
                        (tflite.BatchToSpaceNDOptionsStart, [], tflite.BatchToSpaceNDOptionsEnd))

    def transpose(self, x, perm, name=None):
        """TRANSPOSE by `perm` (an int32 constant input); output dim k is input dim perm[k]."""
        shape = self.shape(x)
        if sorted(perm) != list(range(len(shape))):
            raise ModelGenError(f"transpose: {list(perm)} is not a permutation of {shape}")
        scale, zp = self.quant(x)
        y = self.tensor([shape[p] for p in perm], self.tensors[x].dtype, scale, zp, name=name)
        p = self.tensor((len(perm),), "int32", data=np.array(perm, np.int32),
                        name=f"{self.tensors[y].name}/perm")
        opts = (tflite.TransposeOptionsStart, [], tflite.TransposeOptionsEnd)
        return self._op(_BO.TRANSPOSE, [x, p], [y], _OPT.TransposeOptions, opts)

    def pad_v2(self, x, paddings, value, name=None):
        """PADV2: PAD with `value` of x's type (int8 or int16: a scalar constant input in the
        output's quantization, as TFLM's Prepare requires for int8)."""
        shape = self.shape(x)
        paddings = np.asarray(paddings, np.int32).reshape(len(shape), 2)
        out = [s + int(p[0]) + int(p[1]) for s, p in zip(shape, paddings)]
        scale, zp = self.quant(x)
        dtype = self.tensors[x].dtype
        y = self.tensor(out, dtype, scale, zp, name=name)
        p = self.tensor((len(shape), 2), "int32", data=paddings,
                        name=f"{self.tensors[y].name}/paddings")
        v = self.tensor((), dtype, scale, zp, data=np.array(value, _DTYPES[dtype][1]),
                        name=f"{self.tensors[y].name}/constant_values")
        opts = (tflite.PadV2OptionsStart, [], tflite.PadV2OptionsEnd)
        return self._op(_BO.PADV2, [x, p, v], [y], _OPT.PadV2Options, opts)

    def _max_min(self, code, a, b, name):
        shape = self._binary_shape(a, b, name)
        scale, zp = self.quant(a)
        y = self.tensor(shape, self.tensors[a].dtype, scale, zp, name=name)
        opts = (tflite.MaximumMinimumOptionsStart, [], tflite.MaximumMinimumOptionsEnd)
        return self._op(code, [a, b], [y], _OPT.MaximumMinimumOptions, opts)

    def maximum(self, a, b, name=None):
        """MAXIMUM of two int8 (or int16) tensors (broadcasting allowed; the output takes a's
        quantization: the op compares raw values)."""
        return self._max_min(_BO.MAXIMUM, a, b, name or f"maximum_{len(self.ops)}")

    def minimum(self, a, b, name=None):
        """MINIMUM, as `maximum`."""
        return self._max_min(_BO.MINIMUM, a, b, name or f"minimum_{len(self.ops)}")

    def batch_matmul(self, lhs, rhs, adj_x=False, adj_y=False, out_scale=None,
                     out_zero_point=0, name=None):
        """BATCH_MATMUL of int8 or int16 lhs and rhs (either may be a constant from `tensor`;
        the output takes lhs's type); batch dimensions broadcast; `adj_x`/`adj_y` transpose
        the last two dims of lhs / rhs."""
        name = name or f"batch_matmul_{len(self.ops)}"
        sl, sr = self.shape(lhs), self.shape(rhs)
        rows = sl[-1] if adj_x else sl[-2]
        depth = sl[-2] if adj_x else sl[-1]
        cols = sr[-2] if adj_y else sr[-1]
        if depth != (sr[-1] if adj_y else sr[-2]):
            raise ModelGenError(f"{name}: {sl} and {sr} do not multiply (adj_x={adj_x}, "
                                f"adj_y={adj_y})")
        try:
            batch = tuple(np.broadcast_shapes(sl[:-2], sr[:-2]))
        except ValueError:
            raise ModelGenError(f"{name}: batch dims of {sl} and {sr} do not broadcast") from None
        if out_scale is None:      # random operands' std: int8 ~74, int16 ~18900
            if self.tensors[lhs].dtype == "int16":
                out_scale = (self.quant(lhs)[0] * self.quant(rhs)[0] * 18900 * 18900
                             * math.sqrt(depth) / 10000)
            else:
                out_scale = (self.quant(lhs)[0] * self.quant(rhs)[0] * 74 * 74
                             * math.sqrt(depth) / 40)
        y = self._activation_out(batch + (rows, cols), out_scale, out_zero_point, name, like=lhs)
        opts = (tflite.BatchMatMulOptionsStart, [(tflite.BatchMatMulOptionsAddAdjX, bool(adj_x)),
                                                 (tflite.BatchMatMulOptionsAddAdjY, bool(adj_y))],
                tflite.BatchMatMulOptionsEnd)
        return self._op(_BO.BATCH_MATMUL, [lhs, rhs], [y], _OPT.BatchMatMulOptions, opts)

    def transpose_conv(self, x, out_channels, kernel=(3, 3), stride=(2, 2), padding="SAME",
                       activation="NONE", weights=None, bias=None, weight_scale=None,
                       per_channel=True, use_bias=True, out_scale=None, out_zero_point=0,
                       name=None):
        """TRANSPOSE_CONV; weights OHWI int8; output size as tf.nn.conv2d_transpose gives it
        (SAME: input * stride, VALID: input * stride + max(kernel - stride, 0)); inputs
        [output shape, weights, input, bias]."""
        name = name or f"transpose_conv_{len(self.ops)}"
        n, h, w_, c = self._nhwc(x, name)
        kh, kw = _pair(kernel)
        sh, sw = _pair(stride)
        self._check_options(name, padding, activation)
        if padding == "SAME":
            oh, ow = h * sh, w_ * sw
        else:
            oh, ow = h * sh + max(kh - sh, 0), w_ * sw + max(kw - sw, 0)
        wt, b, ws = self._mac_layer(x, weights, (out_channels, kh, kw, c), bias, out_channels,
                                    kh * kw * c, weight_scale, per_channel, 0, use_bias, name)
        if out_scale is None:
            fan_in = max(1, (kh * kw * c) // (sh * sw))   # taps reaching one output, on average
            out_scale = self._spread_scale(x, ws, fan_in)
        shape = self.tensor((4,), "int32", data=np.array([n, oh, ow, out_channels], np.int32),
                            name=f"{name}/output_shape")
        y = self._activation_out((n, oh, ow, out_channels), out_scale, out_zero_point, name)
        opts = (tflite.TransposeConvOptionsStart, [
            (tflite.TransposeConvOptionsAddPadding, _PADDINGS[padding]),
            (tflite.TransposeConvOptionsAddStrideW, sw),
            (tflite.TransposeConvOptionsAddStrideH, sh),
            (tflite.TransposeConvOptionsAddFusedActivationFunction, _ACTIVATIONS[activation])],
            tflite.TransposeConvOptionsEnd)
        inputs = [shape, wt, x] + ([b] if use_bias else [])
        return self._op(_BO.TRANSPOSE_CONV, inputs, [y], _OPT.TransposeConvOptions, opts)

    def svdf(self, x, units, rank=1, memory=8, state_dtype="int8", state_scale=None,
             state_zero_point=0, weights_feature=None, weights_time=None, bias=None,
             activation="NONE", out_scale=None, out_zero_point=0, name=None):
        """SVDF on x [batch, input_size]: weights_feature [units * rank, input_size] int8,
        weights_time [units * rank, memory] of `state_dtype` (int8: arm_svdf_s8, int16:
        arm_svdf_state_s16_s8), bias [units] int32 at state scale x time scale, and the
        variable state tensor [batch, memory * units * rank]; inputs in TFLite's order."""
        name = name or f"svdf_{len(self.ops)}"
        shape = self.shape(x)
        if len(shape) != 2:
            raise ModelGenError(f"{name}: input must be [batch, input_size], got {shape}")
        if state_dtype not in ("int8", "int16"):
            raise ModelGenError(f"{name}: state_dtype must be int8 or int16")
        batch, size = shape
        filters = units * rank
        in_scale = self.tensors[x].scale
        wf_scale = 0.008
        if state_scale is None:     # the feature stage spread over ~40 state steps
            state_scale = in_scale * wf_scale * 74 * 74 * math.sqrt(size) / 40
        if weights_feature is None:
            weights_feature = self._random_weights((filters, size))
        wf = self.tensor((filters, size), "int8", wf_scale, 0, data=weights_feature,
                         name=f"{name}/weights_feature")
        if weights_time is None:
            if state_dtype == "int8":
                weights_time = self._random_weights((filters, memory))
            else:
                weights_time = self.rng.integers(-2000, 2001, size=(filters, memory))
        wt_scale = 0.008 if state_dtype == "int8" else 0.0005
        wt = self.tensor((filters, memory), state_dtype, wt_scale, 0, data=weights_time,
                         name=f"{name}/weights_time")
        if bias is None:
            bias = self._random_bias(units, memory * rank)
        b = self.tensor((units,), "int32", float(np.float32(state_scale) * np.float32(wt_scale)),
                        0, data=bias, name=f"{name}/bias")
        state = self.tensor((batch, memory * filters), state_dtype, state_scale,
                            state_zero_point, name=f"{name}/state")
        self.tensors[state].is_variable = True
        if out_scale is None:       # state values spread ~25 steps, time weights ~74 / ~1150
            wt_std = 74 if state_dtype == "int8" else 1150
            out_scale = state_scale * wt_scale * 25 * wt_std * math.sqrt(memory * rank) / 40
        y = self._activation_out((batch, units), out_scale, out_zero_point, name)
        if activation not in _ACTIVATIONS:
            raise ModelGenError(f"{name}: unknown activation {activation!r}")
        opts = (tflite.SVDFOptionsStart, [
            (tflite.SVDFOptionsAddRank, rank),
            (tflite.SVDFOptionsAddFusedActivationFunction, _ACTIVATIONS[activation])],
            tflite.SVDFOptionsEnd)
        return self._op(_BO.SVDF, [x, wf, wt, b, state], [y], _OPT.SVDFOptions, opts)

    def unidirectional_sequence_lstm(self, x, units, time_major=False, cell_clip=10.0,
                                     cell_scale_power=-11, out_scale=None,
                                     out_zero_point=0, weights=None, biases=None, name=None):
        """UNIDIRECTIONAL_SEQUENCE_LSTM on x [batch, time, features] ([time, batch, features]
        when `time_major`), int8 with an int16 cell state (an int16 `x`: the 16x8 LSTM, int16
        output and output state, int64 biases, `out_scale` 2^-15 by default, else 1/128),
        laid out as TensorFlow's converter
        writes a full-integer LSTM: 24 inputs in TFLite's order -- 0 input, 1-4 input-to-
        (input, forget, cell, output) weights [units, features], 5-8 recurrent-to-* weights
        [units, units] (int8, per-tensor symmetric), 9-11 peephole weights absent (-1), 12-15
        gate biases [units] int32, 16-17 projection absent, 18 the output state (int8
        variable, the output's quantization), 19 the cell state (int16 variable, scale
        2**cell_scale_power), 20-23 layer-norm coefficients absent -- TANH as the cell
        activation and `cell_clip` (float, 0: none) in the options.  `weights` /
        `biases`: dicts keyed "input_to_forget", "recurrent_to_cell", ..., "forget" (biases),
        else seeded random values with scales that put the gate inputs near +-2 in Q3.12.
        The converter's five `intermediates` (scales of the full-integer TFLite kernel) are
        not written: TFLM's kernel never reads them."""
        name = name or f"lstm_{len(self.ops)}"
        shape = self.shape(x)
        if len(shape) != 3:
            raise ModelGenError(f"{name}: input must be [batch, time, features], got {shape}")
        batch = shape[1] if time_major else shape[0]
        features = shape[2]
        weights, biases = dict(weights or {}), dict(biases or {})
        in_scale = self.tensors[x].scale
        act = self.tensors[x].dtype                 # int8, or int16 (16x8)
        x_std = 18900 if act == "int16" else 74      # random inputs' std (int16: uniform)
        if out_scale is None:
            out_scale = 2.0 ** -15 if act == "int16" else 1 / 128
        gates = ("input", "forget", "cell", "output")
        w_in = {}
        for g in gates:             # input-to-gate: gate inputs with std ~2 (Q3.12 range +-8)
            ws = 2.0 / (x_std * 74 * in_scale * math.sqrt(features))
            data = weights.get(f"input_to_{g}")
            if data is None:
                data = self._random_weights((units, features))
            w_in[g] = self.tensor((units, features), "int8", ws, 0, data=data,
                                  name=f"{name}/input_to_{g}_weights")
        w_rec = {}
        for g in gates:             # recurrent: hidden values ~+-0.5 at out_scale
            ws = 2.0 / (74 * 0.5 * math.sqrt(units))
            data = weights.get(f"recurrent_to_{g}")
            if data is None:
                data = self._random_weights((units, units))
            w_rec[g] = self.tensor((units, units), "int8", ws, 0, data=data,
                                   name=f"{name}/recurrent_to_{g}_weights")
        bias = {}
        for g in gates:
            bs = float(np.float32(in_scale) * np.float32(self.tensors[w_in[g]].scale))
            data = biases.get(g)
            if data is None:        # the same real range: 16x8 bias steps are x_std/74 finer
                bound = 2000 * x_std // 74
                data = self.rng.integers(-bound, bound + 1, size=units)
            bias[g] = self.tensor((units,), "int64" if act == "int16" else "int32", bs, 0,
                                  data=data, name=f"{name}/{g}_bias")
        out_shape = (shape[0], shape[1], units)
        state = self.tensor((batch, units), act, out_scale, out_zero_point,
                            name=f"{name}/output_state")
        cell = self.tensor((batch, units), "int16", 2.0 ** cell_scale_power, 0,
                           name=f"{name}/cell_state")
        self.tensors[state].is_variable = True
        self.tensors[cell].is_variable = True
        y = self.tensor(out_shape, act, out_scale, out_zero_point, name=name)
        inputs = ([x] + [w_in[g] for g in gates] + [w_rec[g] for g in gates] + [-1] * 3
                  + [bias[g] for g in gates] + [-1] * 2 + [state, cell] + [-1] * 4)
        opts = (tflite.UnidirectionalSequenceLSTMOptionsStart, [
            (tflite.UnidirectionalSequenceLSTMOptionsAddFusedActivationFunction,
             tflite.ActivationFunctionType.TANH),
            (tflite.UnidirectionalSequenceLSTMOptionsAddCellClip, float(cell_clip)),
            (tflite.UnidirectionalSequenceLSTMOptionsAddProjClip, 0.0),
            (tflite.UnidirectionalSequenceLSTMOptionsAddTimeMajor, bool(time_major))],
            tflite.UnidirectionalSequenceLSTMOptionsEnd)
        return self._op(_BO.UNIDIRECTIONAL_SEQUENCE_LSTM, inputs, [y],
                        _OPT.UnidirectionalSequenceLSTMOptions, opts)

    def concatenation(self, xs, axis=-1, activation="NONE", name=None):
        """CONCATENATION of int8 or int16 tensors; TFLM's int8 kernel needs equal input/output
        quantization, so the output takes the first input's and every int8 input must match
        it (int16 inputs may differ in scale: TFLM only asks zero point 0)."""
        name = name or f"concatenation_{len(self.ops)}"
        shapes = [self.shape(x) for x in xs]
        rank = len(shapes[0])
        ax = axis % rank
        for s in shapes[1:]:
            if len(s) != rank or any(s[i] != shapes[0][i] for i in range(rank) if i != ax):
                raise ModelGenError(f"{name}: shapes {shapes} do not concatenate on axis {axis}")
        q = self.quant(xs[0])
        dtype = self.tensors[xs[0]].dtype
        if dtype == "int8" and any(self.quant(x) != q for x in xs):
            raise ModelGenError(f"{name}: int8 inputs must share one quantization")
        out = list(shapes[0])
        out[ax] = sum(s[ax] for s in shapes)
        y = self.tensor(out, dtype, q[0], q[1], name=name)
        opts = (tflite.ConcatenationOptionsStart, [
            (tflite.ConcatenationOptionsAddAxis, axis),
            (tflite.ConcatenationOptionsAddFusedActivationFunction, _ACTIVATIONS[activation])],
            tflite.ConcatenationOptionsEnd)
        return self._op(_BO.CONCATENATION, list(xs), [y], _OPT.ConcatenationOptions, opts)

    def _sigmoid_like(self, code, x, out_scale, out_zero_point, name):
        dtype = self.tensors[x].dtype
        key = ("LOGISTIC" if code == _BO.LOGISTIC else "TANH", dtype)
        scale, zero_point = _SIGMOID_OUT.get(key, (None, None))
        y = self.tensor(self.shape(x), dtype,
                        scale if out_scale is None else out_scale,
                        zero_point if out_zero_point is None else out_zero_point, name=name)
        return self._op(code, [x], [y])

    def logistic(self, x, out_scale=None, out_zero_point=None, name=None):
        """LOGISTIC (no options) of x's type; output quantization TFLM's unless given."""
        return self._sigmoid_like(_BO.LOGISTIC, x, out_scale, out_zero_point, name)

    def tanh(self, x, out_scale=None, out_zero_point=None, name=None):
        """TANH (no options) of x's type; output quantization TFLM's unless given."""
        return self._sigmoid_like(_BO.TANH, x, out_scale, out_zero_point, name)

    def quantize(self, x, scale, zero_point, dtype="int8", name=None):
        """QUANTIZE: float32 -> int8, or int8 -> int8 requantization."""
        y = self.tensor(self.shape(x), dtype, scale, zero_point, name=name)
        opts = (tflite.QuantizeOptionsStart, [], tflite.QuantizeOptionsEnd)
        return self._op(_BO.QUANTIZE, [x], [y], _OPT.QuantizeOptions, opts)

    def dequantize(self, x, name=None):
        """DEQUANTIZE: int8 -> float32."""
        y = self.tensor(self.shape(x), "float32", name=name)
        opts = (tflite.DequantizeOptionsStart, [], tflite.DequantizeOptionsEnd)
        return self._op(_BO.DEQUANTIZE, [x], [y], _OPT.DequantizeOptions, opts)

    # --- checks --------------------------------------------------------------------------

    def _nhwc(self, x, name):
        shape = self.shape(x)
        if len(shape) != 4:
            raise ModelGenError(f"{name}: input must be NHWC, got shape {shape}")
        return shape

    @staticmethod
    def _check_options(name, padding, activation):
        if padding not in _PADDINGS:
            raise ModelGenError(f"{name}: padding {padding!r} (SAME or VALID)")
        if activation not in _ACTIVATIONS:
            raise ModelGenError(f"{name}: activation {activation!r} ({', '.join(_ACTIVATIONS)})")

    # --- serialisation -------------------------------------------------------------------

    def build(self):
        """Serialise to .tflite bytes."""
        if not self.inputs or not self.outputs:
            raise ModelGenError("a model needs at least one input and one output")
        return _serialise(self)


def _pair(v):
    if isinstance(v, (int, np.integer)):
        return int(v), int(v)
    a, b = v
    return int(a), int(b)


def _int_vector(builder, start, values, dtype="int32"):
    values = list(values)
    arr = np.asarray(values, {"int32": np.int32, "int64": np.int64,
                              "float32": np.float32}[dtype])
    return builder.CreateNumpyVector(arr)


def _offset_vector(builder, start, offsets):
    start(builder, len(offsets))
    for off in reversed(offsets):
        builder.PrependUOffsetTRelative(off)
    return builder.EndVector()


def _aligned_bytes(builder, data, alignment=16):
    payload = np.ascontiguousarray(data).tobytes()
    builder.StartVector(1, len(payload), alignment)
    builder.head -= len(payload)
    builder.Bytes[builder.head:builder.head + len(payload)] = payload
    builder.vectorNumElems = len(payload)
    return builder.EndVector()


def _quantization(builder, t):
    if t.scale is None:
        return None
    scales = np.atleast_1d(np.asarray(t.scale, np.float32))
    zps = np.atleast_1d(np.asarray(t.zero_point if t.zero_point is not None else 0, np.int64))
    if zps.size == 1 and scales.size > 1:
        zps = np.repeat(zps, scales.size)
    s = builder.CreateNumpyVector(scales)
    z = builder.CreateNumpyVector(zps)
    tflite.QuantizationParametersStart(builder)
    tflite.QuantizationParametersAddScale(builder, s)
    tflite.QuantizationParametersAddZeroPoint(builder, z)
    tflite.QuantizationParametersAddQuantizedDimension(builder, int(t.axis))
    return tflite.QuantizationParametersEnd(builder)


def _options(builder, spec):
    start, fields, end = spec
    vectors = []
    for add, value in fields:   # vectors must be created before the table starts
        if isinstance(value, tuple):
            vectors.append(_int_vector(builder, None, value[1], value[0]))
        else:
            vectors.append(None)
    start(builder)
    for (add, value), vec in zip(fields, vectors):
        add(builder, vec if vec is not None else value)
    return end(builder)


def _packed_int4(values):
    """TFLite's INT4 buffer: two values per byte, element 2k in the low nibble of byte k (an
    odd count leaves the last high nibble 0)."""
    flat = np.asarray(values, np.int64).ravel()
    if flat.size % 2:
        flat = np.append(flat, 0)
    return ((flat[0::2] & 0xF) | ((flat[1::2] & 0xF) << 4)).astype(np.uint8)


_BUILTIN_NAMES = {code: name for name, code in vars(tflite.BuiltinOperator).items()
                  if not name.startswith("_")}


def _converter_version(code):
    """The version the TFLite converter gives an int8 model of builtin `code`: its
    Operator's (`converter_version`), 1 for an op armsim has no module for."""
    operator = operators.get(_BUILTIN_NAMES.get(code, ""))
    return operator.converter_version if operator is not None else 1


def _serialise(g):
    builder = flatbuffers.Builder(4096)

    # buffers: 0 is the empty sentinel; tensor i uses buffer i + 1
    buffer_offsets = []
    data_offsets = [None] + [
        None if t.data is None else
        _aligned_bytes(builder, _packed_int4(t.data) if t.dtype == "int4" else t.data)
        for t in g.tensors]
    for data in data_offsets:
        tflite.BufferStart(builder)
        if data is not None:
            tflite.BufferAddData(builder, data)
        buffer_offsets.append(tflite.BufferEnd(builder))

    tensor_offsets = []
    for i, t in enumerate(g.tensors):
        name = builder.CreateString(t.name)
        shape = _int_vector(builder, None, t.shape)
        quant = _quantization(builder, t)
        tflite.TensorStart(builder)
        tflite.TensorAddShape(builder, shape)
        tflite.TensorAddType(builder, _DTYPES[t.dtype][0])
        tflite.TensorAddBuffer(builder, i + 1)
        tflite.TensorAddName(builder, name)
        if quant is not None:
            tflite.TensorAddQuantization(builder, quant)
        if t.is_variable:
            tflite.TensorAddIsVariable(builder, True)
        tensor_offsets.append(tflite.TensorEnd(builder))

    codes = []
    for op in g.ops:
        if op.code not in codes:
            codes.append(op.code)
    code_offsets = []
    for code in codes:
        tflite.OperatorCodeStart(builder)
        tflite.OperatorCodeAddDeprecatedBuiltinCode(builder, min(code, 127))
        tflite.OperatorCodeAddBuiltinCode(builder, code)
        tflite.OperatorCodeAddVersion(builder, g.versions.get(code) or _converter_version(code))
        code_offsets.append(tflite.OperatorCodeEnd(builder))

    op_offsets = []
    for op in g.ops:
        ins = _int_vector(builder, None, op.inputs)
        outs = _int_vector(builder, None, op.outputs)
        opts = _options(builder, op.options) if op.options is not None else None
        tflite.OperatorStart(builder)
        tflite.OperatorAddOpcodeIndex(builder, codes.index(op.code))
        tflite.OperatorAddInputs(builder, ins)
        tflite.OperatorAddOutputs(builder, outs)
        if opts is not None:
            tflite.OperatorAddBuiltinOptionsType(builder, op.options_type)
            tflite.OperatorAddBuiltinOptions(builder, opts)
        op_offsets.append(tflite.OperatorEnd(builder))

    tensors = _offset_vector(builder, tflite.SubGraphStartTensorsVector, tensor_offsets)
    operators = _offset_vector(builder, tflite.SubGraphStartOperatorsVector, op_offsets)
    inputs = _int_vector(builder, None, g.inputs)
    outputs = _int_vector(builder, None, g.outputs)
    sg_name = builder.CreateString("main")
    tflite.SubGraphStart(builder)
    tflite.SubGraphAddTensors(builder, tensors)
    tflite.SubGraphAddInputs(builder, inputs)
    tflite.SubGraphAddOutputs(builder, outputs)
    tflite.SubGraphAddOperators(builder, operators)
    tflite.SubGraphAddName(builder, sg_name)
    subgraph = tflite.SubGraphEnd(builder)

    subgraphs = _offset_vector(builder, tflite.ModelStartSubgraphsVector, [subgraph])
    opcodes = _offset_vector(builder, tflite.ModelStartOperatorCodesVector, code_offsets)
    buffers = _offset_vector(builder, tflite.ModelStartBuffersVector, buffer_offsets)
    description = builder.CreateString(g.description)
    tflite.ModelStart(builder)
    tflite.ModelAddVersion(builder, SCHEMA_VERSION)
    tflite.ModelAddOperatorCodes(builder, opcodes)
    tflite.ModelAddSubgraphs(builder, subgraphs)
    tflite.ModelAddDescription(builder, description)
    tflite.ModelAddBuffers(builder, buffers)
    model = tflite.ModelEnd(builder)
    builder.Finish(model, file_identifier=b"TFL3")
    return bytes(builder.Output())


def example_model(seed=0):
    """The default example: a small conv/depthwise/FC network (16x16x3 input, 7 ops).

    The README's first `armsim profile`: 3x3 conv (RELU), 3x3 depthwise stride 2 (RELU6),
    1x1 conv, 2x2 max pool, reshape, fully connected, softmax.  Seeded random weights;
    returns the .tflite bytes."""
    g = Graph(seed=seed, description="armsim example model")
    x = g.input((1, 16, 16, 3), scale=0.0078125, zero_point=-1, name="input")
    y = g.conv2d(x, 8, (3, 3), padding="SAME", activation="RELU", out_zero_point=-128,
                 name="conv1")
    y = g.depthwise_conv2d(y, (3, 3), stride=(2, 2), padding="SAME", activation="RELU6",
                           out_zero_point=-128, name="dwconv")
    y = g.conv2d(y, 16, (1, 1), padding="VALID", activation="NONE", name="pwconv")
    y = g.max_pool2d(y, (2, 2), name="maxpool")
    y = g.reshape(y, (1, -1), name="flatten")
    y = g.fully_connected(y, 10, weight_scale=0.0001, name="fc")   # logits of a few units
    g.output(g.softmax(y, name="softmax"))
    return g.build()


# The MLPerf Tiny v1.0 reference models (keyword spotting, visual wake words, image
# classification, anomaly detection) rebuilt layer for layer: the same ops, shapes, strides,
# paddings, activations and per-channel/per-tensor weight quantization as the int8 .tflite
# files MLPerf Tiny ships, with seeded random weights.  The input quantization is the
# shipped models'; RELU outputs use zero point -128 as the converter gives them; activation
# and logit scales are near the shipped models' (0.015-0.11 and 0.015-0.17).
# tests/data/test_examples.py checks each against the shipped model where ../shared has it.
_ACTIVATION_SCALE = 0.05
_LOGIT_SCALE = 0.15


def _mlperf_graph(seed, task):
    return Graph(seed=seed, description=f"armsim bundled example: MLPerf Tiny {task} layer "
                                        f"shapes, seeded random weights")


def _conv(g, x, channels, kernel, stride=1, activation="RELU", name=None):
    fan_in = kernel[0] * kernel[1] * g.shape(x)[3]
    return g.conv2d(x, channels, kernel, stride=(stride, stride), padding="SAME",
                    activation=activation, out_zero_point=-128 if activation == "RELU" else 0,
                    name=name, **g.calibrated(x, fan_in, channels, _ACTIVATION_SCALE))


def _depthwise_separable(g, x, channels, stride, name):
    """3x3 depthwise (RELU) then 1x1 conv to `channels` (RELU), both SAME."""
    y = g.depthwise_conv2d(x, (3, 3), stride=(stride, stride), padding="SAME",
                           activation="RELU", out_zero_point=-128, name=f"{name}/dw",
                           **g.calibrated(x, 9, g.shape(x)[3], _ACTIVATION_SCALE))
    return _conv(g, y, channels, (1, 1), name=f"{name}/pw")


def _classifier(g, x, classes):
    """Average pool over the whole map, flatten, fully connected logits, softmax."""
    n, h, w, c = g.shape(x)
    y = g.average_pool2d(x, (h, w), padding="VALID", name="avgpool")
    y = g.reshape(y, (1, c), shape_option=False, name="flatten")
    y = g.fully_connected(y, classes, name="fc", **g.calibrated(y, c, None, _LOGIT_SCALE))
    return g.output(g.softmax(y, name="softmax"))


def kws_example(seed=0):
    """MLPerf Tiny keyword spotting, DS-CNN layer shapes (49x10x1 input, 13 ops).

    10x4 stride-2 conv to 64 channels, four depthwise-separable blocks, average pool,
    12 classes."""
    g = _mlperf_graph(seed, "keyword spotting (DS-CNN)")
    y = g.input((1, 49, 10, 1), scale=0.5847029, zero_point=83, name="input")
    y = _conv(g, y, 64, (10, 4), stride=2, name="conv")
    for i in range(4):
        y = _depthwise_separable(g, y, 64, 1, f"block{i}")
    _classifier(g, y, 12)
    return g.build()


# MobileNetV1 0.25 after its first conv: (depthwise stride, pointwise output channels)
_VWW_BLOCKS = ((1, 16), (2, 32), (1, 32), (2, 64), (1, 64), (2, 128), (1, 128), (1, 128),
               (1, 128), (1, 128), (1, 128), (2, 256), (1, 256))


def vww_example(seed=0):
    """MLPerf Tiny visual wake words, MobileNetV1 0.25 layer shapes (96x96x3, 31 ops).

    3x3 stride-2 conv, 13 depthwise-separable blocks to 256 channels, average pool,
    2 classes."""
    g = _mlperf_graph(seed, "visual wake words (MobileNetV1 0.25)")
    y = g.input((1, 96, 96, 3), scale=1 / 255, zero_point=-128, name="input")
    y = _conv(g, y, 8, (3, 3), stride=2, name="conv")
    for i, (stride, channels) in enumerate(_VWW_BLOCKS):
        y = _depthwise_separable(g, y, channels, stride, f"block{i}")
    _classifier(g, y, 2)
    return g.build()


def ic_example(seed=0):
    """MLPerf Tiny image classification, ResNet-8 layer shapes (32x32x3, 16 ops).

    3x3 conv, three residual stacks (16, 32, 64 channels; 1x1 stride-2 shortcuts), average
    pool, 10 classes."""
    g = _mlperf_graph(seed, "image classification (ResNet-8)")
    y = g.input((1, 32, 32, 3), scale=1.0, zero_point=-128, name="input")
    y = _conv(g, y, 16, (3, 3), name="conv")
    for i, channels in enumerate((16, 32, 64)):
        stride = 1 if i == 0 else 2
        r = _conv(g, y, channels, (3, 3), stride=stride, name=f"stack{i}/conv_a")
        r = _conv(g, r, channels, (3, 3), activation="NONE", name=f"stack{i}/conv_b")
        shortcut = y if i == 0 else _conv(g, y, channels, (1, 1), stride=2,
                                          activation="NONE", name=f"stack{i}/shortcut")
        y = g.add(shortcut, r, activation="RELU", out_zero_point=-128, name=f"stack{i}/add")
    _classifier(g, y, 10)
    return g.build()


def ad_example(seed=0):
    """MLPerf Tiny anomaly detection, FC autoencoder layer shapes (640 inputs, 10 ops).

    5 frames x 128 mel bins in, fully connected 128-128-128-128-8-128-128-128-128 (RELU),
    640 outputs."""
    g = _mlperf_graph(seed, "anomaly detection (FC autoencoder)")
    y = g.input((1, 640), scale=0.39101523, zero_point=89, name="input")
    for i, units in enumerate((128, 128, 128, 128, 8, 128, 128, 128, 128)):
        y = g.fully_connected(y, units, activation="RELU", out_zero_point=-128, name=f"fc{i}",
                              **g.calibrated(y, g.shape(y)[1], None, _ACTIVATION_SCALE))
    g.output(g.fully_connected(y, 640, name="fc_out",
                               **g.calibrated(y, 128, None, _ACTIVATION_SCALE)))
    return g.build()


#: the models armsim builds itself, by name (`armsim profile NAME`, `armsim.profile(NAME)`);
#: each builder takes a seed and returns .tflite bytes
EXAMPLES = {"example": example_model, "kws": kws_example, "vww": vww_example,
            "ic": ic_example, "ad": ad_example}

__all__ = ["Graph", "ModelGenError", "example_model", "kws_example", "vww_example",
           "ic_example", "ad_example", "EXAMPLES", "SCHEMA_VERSION"]
