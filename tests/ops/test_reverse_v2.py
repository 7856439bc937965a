"""REVERSE_V2 (int8) on TFLM's counted reference kernel: a model built with
armsim.data.modelgen (`Graph.reverse_v2`, the op's own builder), bit-exact with the TFLM
interpreter on all three paths, each op simulated (counted) and its traced run equal to the
counted one; the kernel's counts equal the compiled kernel's; TFLM's refusals."""
import numpy as np
import pytest

from armsim.cpu import machine
from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.kernels.tflm import reverse
from armsim.pipeline import model, prepare, profiler
from armsim.pipeline.build import Build
from model_helpers import run_all_paths, tflm_outputs


def reverse_model():
    g = modelgen.Graph(seed=61)
    x = g.input((2, 3, 4, 5), scale=0.05, zero_point=-4, name="x")
    row = g.input((7,), scale=0.02, zero_point=9, name="row")
    g.output(g.reverse_v2(x, [0, 1, 2, 3]),    # every axis: one reverse_copy
             g.reverse_v2(x, [3]),             # the last: reverse_copy per row
             g.reverse_v2(x, [1, 2]),          # inner axes: a memcpy per block
             g.reverse_v2(x, [-4, -3]),        # negative axes, the leading ones
             g.reverse_v2(x, [2, 3]),          # the trailing ones
             g.reverse_v2(row, [0]))
    return g.build()


def test_reverse_v2_bit_exact_vs_tflite_micro_on_every_path():
    m, _ = run_all_paths(reverse_model(), "reverse_v2.tflite", seed=62)
    assert [s.case["axes"] for s in prepare.prepare(m)] == [[0, 1, 2, 3], [3], [1, 2], [0, 1],
                                                            [2, 3], [0]]


#: instructions of reference_ops::Reverse<uint8_t> and the newlib memcpy it calls, measured:
#: reverse.h compiled by arm-none-eabi-g++ 12.2 with tools/measure/builds.py's ref_O2 flags,
#: linked against newlib, run on unicorn's Cortex-M4, instructions counted while the
#: function (and a memcpy it called) ran
MEASURED = [((2, 3, 4, 5), (0, 1, 2, 3), 518), ((2, 3, 4, 5), (3,), 775),
            ((2, 3, 4, 5), (1, 2), 873), ((2, 3, 4, 5), (0,), 199),
            ((2, 3, 4, 5), (0, 1), 291), ((2, 3, 4, 5), (2, 3), 595), ((7,), (0,), 54),
            ((3, 1, 4), (1,), 168), ((1, 2, 3, 4, 5, 2), (2, 3, 4), 3211),
            ((5, 8), (1,), 255), ((6, 3), (0,), 227)]


@pytest.mark.parametrize("shape, axes, instructions", MEASURED)
def test_counts_equal_the_compiled_kernel(shape, axes, instructions):
    n = int(np.prod(shape))
    data = np.random.default_rng(0).integers(-128, 128, n).astype(np.int8)
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 0)
    src, dst = mem.place("sram", data), mem.place("sram", np.zeros(n, np.int8))
    m = machine.build(mem, dsp=True)
    reverse.run_reference(m, {"shape": list(shape), "axes": list(axes)},
                          {"input": src, "output": dst})
    np.testing.assert_array_equal(machine.read(m, dst, n),
                                  np.flip(data.reshape(shape), axis=axes).ravel())
    assert sum(machine.counts(m).values()) == instructions


@pytest.mark.parametrize("axes, axis_type, message", [
    ([0, 2], "int32", r"axes \[0, 2\] are not contiguous"),
    ([3], "int32", r"axes \[3\] out of range for rank 3"),
    ([1], "int64", r"axis .* is INT64; TFLM takes INT32")])
def test_refusals_name_the_op_as_tflm_refuses(axes, axis_type, message):
    g = modelgen.Graph()
    x = g.input((2, 3, 4), scale=0.05)
    g.output(g.reverse_v2(x, axes, axis_type))
    data = g.build()
    with pytest.raises(ModelError, match=r"REVERSE_V2.*" + message):
        prepare.prepare(model.parse(data, "reverse_bad.tflite"))
    with pytest.raises(RuntimeError):
        tflm_outputs(data, [np.zeros((2, 3, 4), np.int8)])


def test_int16_runs_on_the_host_as_tflm():
    g = modelgen.Graph()
    x = g.input((2, 3), scale=0.001, dtype="int16")
    g.output(g.reverse_v2(x, [1]))
    data = g.build()
    m = model.parse(data, "reverse_int16.tflite")
    xs = profiler.random_inputs(m, seed=3)
    prof = profiler.run(m, Build("simd"), inputs=xs)
    np.testing.assert_array_equal(prof.outputs[0], tflm_outputs(data, xs)[0])
    assert not prof.ops[0].simulated
