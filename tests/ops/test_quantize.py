"""QUANTIZE between int8 and int16 (issue 10: the edges of a 16x8 model): TFLM's
Requantize<int8_t, int16_t> / <int16_t, int8_t> / <int16_t, int16_t>, counted on every path,
bit-exact with TFLM's interpreter."""
import numpy as np
import pytest

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.pipeline.build import Build

from model_helpers import tflm_outputs

PATHS = ("simd", "scalar", "reference")


def _edges_model(zero_point):
    """int8 in -> QUANTIZE int16 -> ADD int16 -> QUANTIZE int16 (rescale) -> QUANTIZE int8."""
    g = modelgen.Graph(seed=3)
    x = g.input((1, 5, 7, 3), scale=0.02, zero_point=zero_point, name="x")
    h = g.quantize(x, scale=0.0004, zero_point=0, dtype="int16", name="to16")
    s = g.add(h, h, out_scale=0.0009, name="sum")
    r = g.quantize(s, scale=0.0011, zero_point=0, dtype="int16", name="rescale")
    g.output(g.quantize(r, scale=0.03, zero_point=-4, name="to8"))
    return g.build()


@pytest.mark.parametrize("zero_point", [0, 11])
def test_int8_int16_edges_bit_exact_with_tflm(zero_point):
    data = _edges_model(zero_point)
    m = model.parse(data, "edges.tflite")
    steps = prepare.prepare(m)
    assert [s.op for s in steps] == ["QUANTIZE", "ADD", "QUANTIZE", "QUANTIZE"]
    assert not any(s.host for s in steps)
    xs = profiler.random_inputs(m, seed=5)
    (want,) = tflm_outputs(data, xs)
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        np.testing.assert_array_equal(prof.outputs[0], want, err_msg=path)
        assert all(o.simulated for o in prof.ops)
        kernels = [o.kernel for o in prof.ops]
        assert kernels[0].startswith("Requantize<int8_t, int16_t>")
        assert kernels[2].startswith("Requantize<int16_t, int16_t>")
        assert kernels[3].startswith("Requantize<int16_t, int8_t>")
        assert prof.ops[0].mnemonics.get("strh") == prof.ops[3].mnemonics.get("ldrsh") == 105


def test_saturates_to_the_output_type():
    """Values beyond int16 after rescaling clamp at the output type's range (SSAT #16)."""
    g = modelgen.Graph(seed=3)
    x = g.input((1, 64), scale=0.5, zero_point=0, name="x")
    g.output(g.quantize(x, scale=0.001, zero_point=0, dtype="int16", name="wide"))
    data = g.build()
    m = model.parse(data, "sat.tflite")
    xs = [np.arange(-32, 32, dtype=np.int8).reshape(1, 64) * 4]
    (want,) = tflm_outputs(data, xs)
    got = profiler.run(m, Build("simd"), inputs=xs).outputs[0]
    np.testing.assert_array_equal(got, want)
    assert got.min() == -32768 and got.max() == 32767
