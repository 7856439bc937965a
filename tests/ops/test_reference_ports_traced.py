"""The new reference-kernel ports trace exactly what they count: for one model holding each
of them, every op's traced run (armsim.cpu.kernel.Tracer) has the counted run's outputs,
counters and one record per counted instruction."""
import numpy as np
import pytest
import tflite

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.cpu import machine
from armsim.cpu.kernel import Tracer
from armsim.pipeline.build import Build
from armsim.pipeline import harness
import test_activations as act
import test_gather as gat
import test_shape_and_data_movement as shp
import test_strided_slice as sts

BO = tflite.BuiltinOperator


def _graph():
    g = modelgen.Graph(seed=6)
    x = g.input((2, 6, 4), scale=0.05, zero_point=-3, name="x")
    outs = [act.unary(g, code, x, scale, zp, opts) for code, scale, zp, opts in (
        (BO.RELU, 0.03, 5, None), (BO.RELU6, 0.05, -3, None), (BO.ABS, 0.04, 0, None),
        (BO.LEAKY_RELU, 0.05, 1, act.leaky(-0.2)), (BO.HARD_SWISH, 0.03, -20, None),
        (BO.LOGISTIC, 1 / 256, -128, None), (BO.TANH, 1 / 128, 0, None))]
    outs += [shp.expand_dims(g, x, 1), shp.slice_(g, x, [0, 1, 1], [2, 3, -1]),
             shp.shape(g, x), shp.pack(g, [x, x], 1)]
    outs += shp.unpack(g, x, 0) + shp.split(g, x, 1, 3) + shp.split_v(g, x, 2, [1, 3])
    outs += [sts.strided_slice(g, x, [1, 0, 3], [0, 6, 0], [-1, 2, -2]),
             sts.strided_slice(g, x, [0, 1, 0], [2, 5, 4], [1, 1, 1]),
             gat.gather(g, x, [5, 0, 2], axis=1)]
    g.output(*outs)
    return g.build()


@pytest.mark.parametrize("path", ["scalar"])        # the simd build: test_model_tflm.py
def test_traced_run_equals_counted_run(path):
    m = model.parse(_graph(), "traced.tflite")
    (x,) = profiler.random_inputs(m, seed=4)
    values = {m.inputs[0]: x}
    steps = prepare.prepare(m)
    assert not any(s.host for s in steps)
    for step in steps:
        tracer = Tracer()
        mt, _, _, out_t = harness.run_step(step, values, Build(path), tracer=tracer)
        mc, _, _, out_c = harness.run_step(step, values, Build(path))
        for a, b in zip(out_t if isinstance(out_t, list) else [out_t],
                        out_c if isinstance(out_c, list) else [out_c]):
            assert np.array_equal(a, b), step.op
        assert machine.counts(mt) == machine.counts(mc), step.op
        assert len(tracer.records) == sum(machine.counts(mc).values()), step.op
