"""End-to-end bit-exactness against TensorFlow Lite Micro's Python interpreter, on small
models built with armsim.data.modelgen that cover every supported op and option, all paths."""
import numpy as np
import pytest

from armsim.pipeline import model, profiler
from armsim.data import modelgen
from armsim.pipeline.build import Build
from armsim.pipeline import harness
from model_helpers import tflm_reference

PATHS = ("simd", "scalar", "reference")


def _conv_options(g):
    x = g.input((1, 9, 8, 3), scale=0.03, zero_point=5)
    a = g.conv2d(x, 4, (3, 3), padding="SAME", activation="RELU")
    b = g.conv2d(a, 6, (2, 3), stride=(2, 1), padding="VALID", activation="RELU6",
                 out_zero_point=-20)
    c = g.conv2d(b, 4, (3, 2), dilation=(2, 1), padding="SAME", activation="RELU_N1_TO_1",
                 use_bias=False, out_scale=0.01)
    return g.conv2d(c, 8, (1, 1), padding="VALID")            # 1x1 fast path


def _conv_1xn_grouped(g):
    x = g.input((1, 1, 12, 4), scale=0.05, zero_point=-7)
    y = g.conv2d(x, 4, (1, 3), padding="SAME", activation="RELU")   # 1xN kernel
    return g.conv2d(y, 6, (1, 1), stride=(1, 2), padding="VALID")    # 1x1 strided


def _depthwise(g):
    x = g.input((1, 7, 7, 4), scale=0.02, zero_point=-1)
    a = g.depthwise_conv2d(x, (3, 3), padding="SAME", activation="RELU6")      # 3x3 path
    b = g.depthwise_conv2d(a, (3, 3), stride=(2, 2), padding="VALID")
    c = g.depthwise_conv2d(b, (2, 2), depth_multiplier=2, padding="SAME",       # generic
                           activation="RELU")
    return g.depthwise_conv2d(c, (3, 3), dilation=(2, 2), padding="SAME")      # dilated


def _fully_connected(g):
    x = g.input((2, 20), scale=0.04, zero_point=3)
    y = g.fully_connected(x, 7, activation="RELU")
    y = g.fully_connected(y, 5, per_channel=True, activation="RELU6", out_zero_point=-10)
    return g.fully_connected(y, 3, use_bias=False, keep_num_dims=True)


def _fc_batched(g):
    """An output of more than 2 dims: depth % 4 == 0 runs as arm_convolve_1x1_s8_fast."""
    x = g.input((1, 3, 8), scale=0.04, zero_point=-6)
    y = g.fully_connected(x, 5, keep_num_dims=True, activation="RELU")
    return g.fully_connected(y, 4, keep_num_dims=True)


def _pooling(g):
    x = g.input((1, 9, 9, 3), scale=0.1, zero_point=-4)
    a = g.average_pool2d(x, (3, 3), stride=(2, 2), padding="SAME")
    b = g.max_pool2d(a, (2, 2), stride=(1, 1), padding="SAME", activation="RELU")
    c = g.average_pool2d(b, (2, 3), stride=(2, 1), padding="VALID", activation="RELU6")
    return g.max_pool2d(c, (2, 2), padding="VALID")


def _softmax(g):
    x = g.input((3, 10), scale=0.15, zero_point=2)
    return g.softmax(g.softmax(x, beta=1.0), beta=0.5)


def _add_mul(g):
    x = g.input((1, 4, 5, 3), scale=0.05, zero_point=10)
    a = g.conv2d(x, 3, (1, 1), padding="VALID")
    s = g.add(x, a, activation="RELU", out_scale=0.07, out_zero_point=-5)
    p = g.mul(s, a, out_scale=0.02, out_zero_point=3)
    return g.add(p, s, activation="RELU6", out_scale=0.03)


def _mean(g):
    x = g.input((1, 5, 6, 4), scale=0.05, zero_point=-9)
    a = g.mean(x, axes=(1, 2), keep_dims=True)
    y = g.reshape(a, (1, 4))
    b = g.mean(x, axes=(3,), keep_dims=False)
    b = g.reshape(b, (1, 30))
    return g.concatenation([y, g.fully_connected(b, 4, out_scale=g.quant(y)[0],
                                                 out_zero_point=g.quant(y)[1])], axis=1)


def _shape_ops(g):
    x = g.input((1, 4, 4, 3), scale=0.05, zero_point=1)
    p = g.pad(x, [[0, 0], [1, 2], [0, 1], [0, 0]])
    c = g.concatenation([p, p], axis=3)
    r = g.reshape(c, (1, 1, 35, 6))
    s = g.squeeze(r, dims=(1,))
    return g.quantize(s, scale=0.08, zero_point=-3)            # int8 -> int8


def _float_interface(g):
    x = g.input((1, 12), dtype="float32")
    q = g.quantize(x, scale=0.02, zero_point=4)
    y = g.fully_connected(q, 6, activation="RELU")
    return g.dequantize(y)


BUILDERS = {f.__name__.strip("_"): f for f in (
    _conv_options, _conv_1xn_grouped, _depthwise, _fully_connected, _fc_batched, _pooling, _softmax,
    _add_mul, _mean, _shape_ops, _float_interface)}


def _build(builder, seed):
    g = modelgen.Graph(seed=seed)
    g.output(builder(g))
    return g.build()


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_bit_exact_vs_tflite_micro(name, tmp_path):
    data = _build(BUILDERS[name], seed=len(name))
    m = model.parse(data, f"{name}.tflite")
    rng = np.random.default_rng(7)
    for _ in range(2):
        (x,) = profiler.random_inputs(m, seed=int(rng.integers(1 << 30)))
        want = tflm_reference(data, x)
        for path in PATHS:
            got = profiler.run(m, Build(path), inputs=[x]).outputs[0]
            assert got.dtype == want.dtype and got.shape == want.shape, (path, got.shape)
            assert np.array_equal(got, want), (name, path, np.argwhere(got != want)[:5])


def test_depthwise_without_bias_vs_oracle():
    """The tflite-micro interpreter crashes (segfault) on a DEPTHWISE_CONV_2D without bias,
    so that option is checked against the independent numpy oracle of the prepared case."""
    from armsim.pipeline import prepare
    from armsim.kernels import families
    g = modelgen.Graph(seed=3)
    x = g.input((1, 6, 6, 3), scale=0.02, zero_point=-1)
    g.output(g.depthwise_conv2d(x, (3, 3), depth_multiplier=2, padding="SAME",
                                use_bias=False, activation="RELU"))
    m = model.parse(g.build(), "dw_no_bias.tflite")
    (step,) = prepare.prepare(m)
    assert step.case["bias_is_null"]
    (xin,) = profiler.random_inputs(m, seed=5)
    want = families.oracle(dict(step.case, input=xin.ravel())).reshape(step.output_shape)
    for path in PATHS:
        assert np.array_equal(profiler.run(m, Build(path), inputs=[xin]).outputs[0], want), path


def test_batched_fully_connected_runs_as_conv_1x1():
    m = model.parse(_build(_fc_batched, 1), "fc_batched.tflite")
    kernels = [o.kernel.split(" > ")[0] for o in profiler.run(m, Build("simd")).ops]
    assert kernels == ["arm_convolve_1x1_s8_fast", "arm_fully_connected_wrapper_s8"]


def test_ops_without_cmsis_port_are_reference_on_every_path():
    m = model.parse(_build(_shape_ops, 1), "shape_ops.tflite")
    for path in PATHS:
        prof = profiler.run(m, Build(path))
        assert all(o.reference == (o.op != "PAD" or path == "reference") for o in prof.ops)
        assert all(o.instructions > 0 and o.simulated for o in prof.ops)


def test_float_quantize_is_marked_not_simulated():
    m = model.parse(_build(_float_interface, 1), "float_interface.tflite")
    prof = profiler.run(m, Build("simd"))
    flags = [(o.op, o.simulated, o.reference) for o in prof.ops]
    assert flags == [("QUANTIZE", False, True), ("FULLY_CONNECTED", True, False),
                     ("DEQUANTIZE", False, True)]
    assert prof.ops[0].instructions == 0 and prof.ops[1].instructions > 0


@pytest.mark.parametrize("name", ["shape_ops", "mean"])
def test_traced_run_equals_counted_run(name):
    """The reference-only ports and the Eval glue trace exactly what they count."""
    from armsim.cpu import machine
    from armsim.pipeline import prepare
    from armsim.cpu.kernel import Tracer
    m = model.parse(_build(BUILDERS[name], 2), f"{name}.tflite")
    (x,) = profiler.random_inputs(m, seed=4)
    values = {m.inputs[0]: x}
    for step in prepare.prepare(m):
        if step.host:
            continue
        tracer = Tracer()
        mt, _, _, out_t = harness.run_step(step, values, Build("simd"), tracer=tracer)
        mc, _, _, out_c = harness.run_step(step, values, Build("simd"))
        assert np.array_equal(out_t, out_c)
        assert machine.counts(mt) == machine.counts(mc)
        assert len(tracer.records) == sum(machine.counts(mc).values())
        values[step.output] = np.asarray(out_c).reshape(step.output_shape)
