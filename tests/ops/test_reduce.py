"""MEAN, SUM (int8, int16: QuantizedMeanOrSum) and REDUCE_MAX (int8: ReduceGeneric) on
TFLM's counted reference kernels (kernels/tflm/reduce.py; one Prepare, operators/_reduce.py),
whole modelgen models bit-exact with TFLM's interpreter on simd / scalar / reference: every
axes combination of a 4-D input and of other ranks, keep_dims true / false, negative and
repeated axes, same and different input / output quantization; TFLM's refusals in one line,
each checked against the interpreter.
"""
import itertools

import numpy as np
import pytest

import tflm_diff as td
from armsim.data import modelgen
from armsim.pipeline import model, prepare, profiler
from model_helpers import assert_traced_equals_counted, check_every_path, refused_by_both

REDUCERS = ("mean", "sum", "reduce_max")
AXES_4D = [c for k in range(1, 5) for c in itertools.combinations(range(4), k)]


def _reducer_kwargs(op, k):
    """MEAN / SUM alternate the input's quantization with another one; REDUCE_MAX keeps it
    (TFLM requires that)."""
    if op == "reduce_max" or k % 2 == 0:
        return {}
    return {"out_scale": 0.04 if op == "mean" else 0.9, "out_zero_point": 5 - k}


@pytest.mark.parametrize("op", REDUCERS)
def test_reducer_every_4d_axes_combination(op):
    """All 15 axes sets of a 4-D input, keep_dims alternating, every other one written with
    negative axes."""
    g = modelgen.Graph(seed=31)
    x = g.input((2, 3, 4, 5), scale=0.05, zero_point=-7)
    outs = []
    for k, axes in enumerate(AXES_4D):
        if k % 3 == 1:
            axes = tuple(a - 4 for a in axes)
        outs.append(getattr(g, op)(x, axes, keep_dims=k % 2 == 0, **_reducer_kwargs(op, k)))
    g.output(*outs)
    check_every_path(g.build(), f"{op}_4d.tflite", 32, {k: True for k in range(len(outs))})


@pytest.mark.parametrize("op", REDUCERS)
def test_reducer_other_ranks_repeated_axes_and_int16(op):
    g = modelgen.Graph(seed=33)
    v = g.input((7,), scale=0.05, zero_point=3)
    t = g.input((3, 1, 6), scale=0.02, zero_point=-100)
    f = g.input((2, 2, 3, 2, 3), scale=0.1, zero_point=0)
    outs = [getattr(g, op)(v, (0,), keep_dims=True, **_reducer_kwargs(op, 1)),
            getattr(g, op)(v, (-1, 0), keep_dims=False),
            getattr(g, op)(t, (2, -1, 2), keep_dims=False, **_reducer_kwargs(op, 3)),
            getattr(g, op)(t, (1,), keep_dims=True),
            getattr(g, op)(f, (4, 0, 2), keep_dims=True, **_reducer_kwargs(op, 5)),
            getattr(g, op)(f, (1, 3), keep_dims=False)]
    if op != "reduce_max":                       # int16 (zero point 0, as int16 tensors are)
        s = g.input((3, 4, 5), scale=0.001, zero_point=0, dtype="int16")
        outs += [getattr(g, op)(s, (1,), keep_dims=True),
                 getattr(g, op)(s, (0, -1), keep_dims=False, out_scale=0.003 if op == "mean"
                                else 0.05, out_zero_point=0)]
    g.output(*outs)
    profiles = check_every_path(g.build(), f"{op}_ranks.tflite", 34, {k: True for k in range(len(outs))})
    want = "ReduceGeneric" if op == "reduce_max" else "QuantizedMeanOrSum<signed char, int>"
    assert want in profiles["simd"].ops[0].kernel
    if op != "reduce_max":
        assert "QuantizedMeanOrSum<short, int>" in profiles["simd"].ops[-1].kernel


def test_reducer_arena_requests_tflm_scratch_buffers():
    """PrepareMeanOrSumHelper: temp_sum (4 x outputs), input_iter (4 x rank), resolved_axis
    (4 x axes); PrepareMinMaxHelper the last two."""
    g = modelgen.Graph(seed=35)
    x = g.input((2, 3, 4, 5), scale=0.05)
    g.output(g.mean(x, (1, 2, 2)), g.reduce_max(x, (3,), keep_dims=False))
    mean, rmax = prepare.prepare(model.parse(g.build(), "arena.tflite"))
    assert mean.case["scratch_bytes"] == [4 * 10, 16, 12]
    assert rmax.case["scratch_bytes"] == [16, 4]


def test_reduce_max_with_other_output_quantization_refused():
    g = modelgen.Graph(seed=37)
    x = g.input((2, 3, 4), scale=0.05, zero_point=1)
    g.output(g.reduce_max(x, (1,), out_scale=0.1))
    refused_by_both(g.build(), [np.zeros((2, 3, 4), np.int8)], "REDUCE_MAX",
                     "requires them equal")
    g = modelgen.Graph(seed=37)
    x = g.input((2, 3, 4), scale=0.05, zero_point=1)
    g.output(g.reduce_max(x, (1,), out_zero_point=2))
    refused_by_both(g.build(), [np.zeros((2, 3, 4), np.int8)], "REDUCE_MAX", "zero point 2")


def _with_axis(op, value):
    """A 2 x 3 input reduced over one axis whose value is then rewritten in the buffer."""
    g = modelgen.Graph(seed=39)
    g.output(getattr(g, op)(g.input((2, 3), scale=0.05, zero_point=4), (0,),
                            **_reducer_kwargs(op, 1)))
    m = td.unpack(g.build())
    m.buffers[m.subgraphs[0].tensors[2].buffer].data = np.array([value], np.int32).view(np.uint8)
    return td.pack(m)


def test_reduce_max_axis_out_of_range_refused():
    refused_by_both(_with_axis("reduce_max", 2), [np.zeros((2, 3), np.int8)], "REDUCE_MAX",
                     "axis 2 out of range")


@pytest.mark.parametrize("op", REDUCERS)
def test_reducer_axis_not_int32_refused(op):
    g = modelgen.Graph(seed=39)
    g.output(getattr(g, op)(g.input((2, 3), scale=0.05), (0,), axes_dtype="int64"))
    refused_by_both(g.build(), [np.zeros((2, 3), np.int8)], op.upper(), "is INT64",
                     "requires INT32")


@pytest.mark.parametrize("op", ["mean", "sum"])
def test_mean_sum_axis_out_of_range_leave_zeros_as_tflm(op):
    """ResolveAxis fails, EvalIntegerMean / EvalSumHelper ignore it: the cleared output."""
    for value in (2, -3):
        profiles = check_every_path(_with_axis(op, value), f"{op}_axis.tflite", 40, {0: True})
        assert not profiles["simd"].outputs[0].any()


def test_traced_run_equals_counted_run():
    g = modelgen.Graph(seed=41)
    x = g.input((2, 3, 4), scale=0.05, zero_point=-3)
    g.output(g.mean(x, (0, -1), keep_dims=False, out_scale=0.03), g.sum(x, (1,), out_scale=0.2),
             g.reduce_max(x, (2, 0)))
    m = model.parse(g.build(), "traced.tflite")
    assert_traced_equals_counted(m, profiler.random_inputs(m, seed=42))
