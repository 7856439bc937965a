"""armsim.data.modelgen: generated models parse back with the `tflite` package, load and run in
TensorFlow Lite Micro's interpreter, and compute what the options say (checked against a
float numpy evaluation of the same quantized graph, within one output step)."""
import numpy as np
import pytest
import tflite
from tflite_micro.python.tflite_micro import runtime

from armsim import operators
from armsim.data import modelgen
from armsim.errors import ModelGenError
from armsim.data.modelgen import Graph

BO = tflite.BuiltinOperator


def run_tflm(model, *inputs):
    it = runtime.Interpreter.from_bytes(model)
    for i, x in enumerate(inputs):
        it.set_input(x, i)
    it.invoke()
    return it.get_output(0)


def parse(model):
    m = tflite.Model.GetRootAsModel(model, 0)
    return m, m.Subgraphs(0)


def rand_input(g, t, seed=1):
    rng = np.random.default_rng(seed)
    return rng.integers(-128, 128, size=g.shape(t)).astype(np.int8)


# --- float evaluation of a quantized layer (dequantize, compute, requantize) -------------

def deq(g, t, q=None):
    tt = g.tensors[t]
    data = tt.data if q is None else q
    scale = np.asarray(tt.scale, np.float64)
    zp = np.asarray(tt.zero_point, np.float64)
    if scale.ndim:
        shape = [1] * data.ndim
        shape[tt.axis] = -1
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    return (data.astype(np.float64) - zp) * scale


def requant(g, t, real, activation="NONE"):
    scale, zp = g.quant(t)
    lo, hi = -128, 127
    if activation == "RELU":
        lo = max(lo, zp)
    if activation == "RELU6":
        lo, hi = max(lo, zp), min(hi, zp + round(6 / scale))
    return np.clip(np.round(real / scale) + zp, lo, hi)


def same_pad(size, filt, stride, dil):
    out = (size + stride - 1) // stride
    total = max((out - 1) * stride + (filt - 1) * dil + 1 - size, 0)
    return total // 2


def conv_ref(x, w, b, stride, dil, padding, depthwise=False, mult=1):
    """x NHWC float, w OHWI (conv) or 1HW(C*M) (depthwise) float, b float."""
    n, h, wd, c = x.shape
    kh, kw = w.shape[1], w.shape[2]
    oc = w.shape[0] if not depthwise else w.shape[3]
    if padding == "SAME":
        oh, ow = (h + stride[0] - 1) // stride[0], (wd + stride[1] - 1) // stride[1]
        ph, pw = same_pad(h, kh, stride[0], dil[0]), same_pad(wd, kw, stride[1], dil[1])
    else:
        oh = (h - (kh - 1) * dil[0] - 1) // stride[0] + 1
        ow = (wd - (kw - 1) * dil[1] - 1) // stride[1] + 1
        ph = pw = 0
    out = np.zeros((n, oh, ow, oc))
    for oy in range(oh):
        for ox in range(ow):
            acc = np.array(b, np.float64).copy()
            for ky in range(kh):
                for kx in range(kw):
                    iy, ix = oy * stride[0] - ph + ky * dil[0], ox * stride[1] - pw + kx * dil[1]
                    if 0 <= iy < h and 0 <= ix < wd:
                        px = x[0, iy, ix]
                        if depthwise:
                            acc = acc + np.repeat(px, mult) * w[0, ky, kx]
                        else:
                            acc = acc + w[:, ky, kx, :] @ px
            out[0, oy, ox] = acc
    return out


def close(actual, expected):
    diff = np.abs(actual.astype(np.int64) - expected.astype(np.int64))
    assert diff.max() <= 1, f"max diff {diff.max()} at {np.unravel_index(diff.argmax(), diff.shape)}"
    # the comparison is not vacuous: outputs are spread, not all clipped to one value
    assert len(np.unique(actual)) > 3


# --- per-op tests -------------------------------------------------------------------------

CONV_CASES = [
    dict(stride=(1, 1), padding="SAME", dilation=(1, 1), activation="NONE"),
    dict(stride=(2, 2), padding="SAME", dilation=(1, 1), activation="RELU"),
    dict(stride=(1, 2), padding="VALID", dilation=(1, 1), activation="RELU6"),
    dict(stride=(1, 1), padding="SAME", dilation=(2, 2), activation="NONE"),
    dict(stride=(1, 1), padding="VALID", dilation=(2, 1), activation="RELU"),
]


@pytest.mark.parametrize("per_channel", [True, False])
@pytest.mark.parametrize("opt", CONV_CASES, ids=lambda o: "-".join(map(str, o.values())))
def test_conv2d(opt, per_channel):
    g = Graph(seed=3)
    x = g.input((1, 7, 9, 5), scale=0.05, zero_point=3)
    y = g.conv2d(x, 6, (3, 3), per_channel=per_channel, out_zero_point=-5, **opt)
    g.output(y)
    model = g.build()
    xin = rand_input(g, x)
    out = run_tflm(model, xin)
    _, w, b = g.ops[0].inputs
    real = conv_ref(deq(g, x, xin), deq(g, w), deq(g, b), opt["stride"], opt["dilation"],
                    opt["padding"])
    assert out.shape == g.shape(y)
    close(out, requant(g, y, real, opt["activation"]))

    m, sg = parse(model)
    op = sg.Operators(0)
    assert m.OperatorCodes(op.OpcodeIndex()).BuiltinCode() == BO.CONV_2D
    assert m.OperatorCodes(op.OpcodeIndex()).Version() == 3
    o = tflite.Conv2DOptions()
    o.Init(op.BuiltinOptions().Bytes, op.BuiltinOptions().Pos)
    assert (o.StrideH(), o.StrideW()) == opt["stride"]
    assert (o.DilationHFactor(), o.DilationWFactor()) == opt["dilation"]
    assert o.Padding() == getattr(tflite.Padding, opt["padding"])
    assert o.FusedActivationFunction() == getattr(tflite.ActivationFunctionType,
                                                  opt["activation"])
    wq = sg.Tensors(op.Inputs(1)).Quantization()
    assert wq.ScaleLength() == (6 if per_channel else 1)
    assert wq.QuantizedDimension() == 0
    assert list(wq.ZeroPointAsNumpy()) == [0] * wq.ScaleLength()
    bt = sg.Tensors(op.Inputs(2))
    assert bt.Type() == tflite.TensorType.INT32
    np.testing.assert_allclose(bt.Quantization().ScaleAsNumpy(),
                               (0.05 * np.asarray(g.tensors[w].scale)).astype(np.float32)
                               * np.ones(wq.ScaleLength()), rtol=1e-6)


@pytest.mark.parametrize("mult,stride,padding,activation", [
    (1, (1, 1), "SAME", "NONE"), (2, (2, 2), "SAME", "RELU"), (3, (1, 1), "VALID", "RELU6")])
def test_depthwise(mult, stride, padding, activation):
    g = Graph(seed=4)
    x = g.input((1, 6, 8, 4), scale=0.03, zero_point=-7)
    y = g.output(g.depthwise_conv2d(x, (3, 3), depth_multiplier=mult, stride=stride,
                                    padding=padding, activation=activation, out_zero_point=2))
    model = g.build()
    xin = rand_input(g, x)
    out = run_tflm(model, xin)
    _, w, b = g.ops[0].inputs
    real = conv_ref(deq(g, x, xin), deq(g, w), deq(g, b), stride, (1, 1), padding,
                    depthwise=True, mult=mult)
    assert out.shape == (1,) + real.shape[1:3] + (4 * mult,)
    close(out, requant(g, y, real, activation))
    m, sg = parse(model)
    op = sg.Operators(0)
    o = tflite.DepthwiseConv2DOptions()
    o.Init(op.BuiltinOptions().Bytes, op.BuiltinOptions().Pos)
    assert o.DepthMultiplier() == mult
    assert sg.Tensors(op.Inputs(1)).Quantization().QuantizedDimension() == 3
    assert list(sg.Tensors(op.Inputs(1)).ShapeAsNumpy()) == [1, 3, 3, 4 * mult]


@pytest.mark.parametrize("use_bias", [True, False])
def test_fully_connected(use_bias):
    g = Graph(seed=5)
    x = g.input((2, 20), scale=0.04, zero_point=1)
    y = g.output(g.fully_connected(x, 7, activation="RELU", use_bias=use_bias,
                                   out_zero_point=-20))
    model = g.build()
    xin = rand_input(g, x)
    out = run_tflm(model, xin)
    _, w, b = g.ops[0].inputs
    real = deq(g, x, xin) @ deq(g, w).T + (deq(g, b) if use_bias else 0)
    close(out, requant(g, y, real, "RELU"))
    _, sg = parse(model)
    assert sg.Operators(0).Inputs(2) == (b if use_bias else -1)


@pytest.mark.parametrize("kind", ["average", "max"])
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_pools(kind, padding):
    g = Graph(seed=6)
    x = g.input((1, 5, 7, 3), scale=0.1, zero_point=4)
    pool = g.average_pool2d if kind == "average" else g.max_pool2d
    g.output(pool(x, (2, 3), stride=(2, 2), padding=padding))
    xin = rand_input(g, x)
    out = run_tflm(g.build(), xin)
    # reference: windows clipped at the border (TFLite divides by the in-bounds count)
    oh, ow = out.shape[1:3]
    ph = same_pad(5, 2, 2, 1) if padding == "SAME" else 0
    pw = same_pad(7, 3, 2, 1) if padding == "SAME" else 0
    exp = np.zeros(out.shape)
    for oy in range(oh):
        for ox in range(ow):
            y0, x0 = oy * 2 - ph, ox * 2 - pw
            win = xin[0, max(y0, 0):y0 + 2, max(x0, 0):x0 + 3].reshape(-1, 3).astype(np.float64)
            exp[0, oy, ox] = win.max(0) if kind == "max" else win.mean(0)
    expected_hw = ((5 + 1) // 2, (7 + 1) // 2) if padding == "SAME" else ((5 - 2) // 2 + 1,
                                                                          (7 - 3) // 2 + 1)
    assert (oh, ow) == expected_hw
    close(out, np.round(exp))


def test_softmax_add_mul():
    g = Graph(seed=7)
    a = g.input((1, 12), scale=0.05, zero_point=0)
    b = g.input((1, 12), scale=0.07, zero_point=-3)
    s = g.add(a, b, out_zero_point=1)
    p = g.mul(s, b, out_zero_point=-2)
    g.output(g.softmax(p, beta=0.05))
    model = g.build()
    xa, xb = rand_input(g, a, 1), rand_input(g, b, 2)
    out = run_tflm(model, xa, xb)
    real_a, real_b = deq(g, a, xa), deq(g, b, xb)
    qs = requant(g, s, real_a + real_b)
    qp = requant(g, p, deq(g, s, qs) * real_b)
    logits = deq(g, p, qp) * 0.05
    e = np.exp(logits - logits.max())
    close(out, requant(g, g.outputs[0], e / e.sum()))
    _, sg = parse(model)
    q = sg.Tensors(g.outputs[0]).Quantization()
    assert q.ScaleAsNumpy()[0] == np.float32(1 / 256) and q.ZeroPointAsNumpy()[0] == -128


def test_broadcast_add():
    g = Graph(seed=8)
    a = g.input((1, 3, 4, 5), scale=0.05, zero_point=0)
    c = g.tensor((1, 1, 1, 5), "int8", 0.05, 0, data=np.arange(-20, 30, 10, dtype=np.int8))
    g.output(g.add(a, c, out_scale=0.1))
    xa = rand_input(g, a)
    out = run_tflm(g.build(), xa)
    close(out, requant(g, g.outputs[0], deq(g, a, xa) + deq(g, c)))


def test_shape_ops_and_quantize():
    g = Graph(seed=9)
    f = g.input((1, 4, 4, 2), dtype="float32")
    x = g.quantize(f, 0.05, -3)
    p = g.pad(x, [[0, 0], [1, 0], [0, 2], [0, 0]])
    m = g.mean(p, axes=(1, 2), keep_dims=True)
    r = g.reshape(m, (1, -1))
    c = g.concatenation([r, r], axis=1)
    q = g.quantize(c, 0.1, 5)
    s = g.squeeze(g.reshape(q, (1, 4, 1)), dims=(2,))
    g.output(g.dequantize(s))
    model = g.build()
    xin = np.random.default_rng(0).uniform(-5, 5, (1, 4, 4, 2)).astype(np.float32)
    out = run_tflm(model, xin)
    assert out.dtype == np.float32 and out.shape == (1, 4)
    xq = np.clip(np.round(xin / 0.05) - 3, -128, 127)
    padded = np.pad(xq, [[0, 0], [1, 0], [0, 2], [0, 0]], constant_values=-3)
    mean = np.round(padded.mean(axis=(1, 2)))             # same scale: mean of the codes
    real = (mean - (-3)) * 0.05
    q2 = np.clip(np.round(real / 0.1) + 5, -128, 127)
    expected = np.concatenate([q2, q2], axis=1)
    np.testing.assert_allclose(out, (expected - 5) * 0.1, atol=0.1 + 1e-6)
    _, sg = parse(model)
    codes = [parse(model)[0].OperatorCodes(sg.Operators(i).OpcodeIndex()).BuiltinCode()
             for i in range(sg.OperatorsLength())]
    assert codes == [BO.QUANTIZE, BO.PAD, BO.MEAN, BO.RESHAPE, BO.CONCATENATION,
                     BO.QUANTIZE, BO.RESHAPE, BO.SQUEEZE, BO.DEQUANTIZE]


def test_layout_like_the_converter():
    model = modelgen.example_model()
    assert model[4:8] == b"TFL3"
    m, sg = parse(model)
    assert m.Version() == modelgen.SCHEMA_VERSION
    assert m.Buffers(0).DataLength() == 0
    buffers = [sg.Tensors(i).Buffer() for i in range(sg.TensorsLength())]
    assert len(set(buffers)) == len(buffers) and 0 not in buffers
    for i in range(sg.TensorsLength()):
        buf = m.Buffers(sg.Tensors(i).Buffer())
        if buf.DataLength():
            offset = buf._tab.Vector(buf._tab.Offset(4))
            assert offset % 16 == 0, "constant data is 16-byte aligned"
    for i in range(m.OperatorCodesLength()):
        oc = m.OperatorCodes(i)
        assert oc.DeprecatedBuiltinCode() == oc.BuiltinCode()
        name = next(k for k, v in vars(BO).items() if v == oc.BuiltinCode())
        assert oc.Version() == operators.get(name).converter_version


def test_example_model():
    model = modelgen.example_model()
    assert model == modelgen.example_model(), "seeded: the same bytes every time"
    assert model != modelgen.example_model(seed=1)
    m, sg = parse(model)
    codes = [m.OperatorCodes(sg.Operators(i).OpcodeIndex()).BuiltinCode()
             for i in range(sg.OperatorsLength())]
    assert codes == [BO.CONV_2D, BO.DEPTHWISE_CONV_2D, BO.CONV_2D, BO.MAX_POOL_2D,
                     BO.RESHAPE, BO.FULLY_CONNECTED, BO.SOFTMAX]
    x = np.random.default_rng(0).integers(-128, 128, (1, 16, 16, 3)).astype(np.int8)
    out = run_tflm(model, x)
    assert out.shape == (1, 10) and out.dtype == np.int8
    probs = (out.astype(np.int64) + 128) / 256
    assert abs(probs.sum() - 1) < 0.05
    assert (out > -128).sum() >= 2, "softmax not collapsed onto one class"


def test_errors():
    g = Graph()
    x = g.input((1, 4, 4, 2))
    with pytest.raises(ModelGenError, match="padding"):
        g.conv2d(x, 2, padding="FULL")
    with pytest.raises(ModelGenError, match="weights shape"):
        g.conv2d(x, 2, (3, 3), weights=np.zeros((2, 3, 3, 3), np.int8))
    with pytest.raises(ModelGenError, match="reshape"):
        g.reshape(x, (1, 7))
    with pytest.raises(ModelGenError, match="kernel larger"):
        g.conv2d(x, 2, (5, 5), padding="VALID")
    with pytest.raises(ModelGenError, match="input and one output"):
        g.build()
