"""MAXIMUM, MINIMUM and BATCH_MATMUL as whole models: armsim.data.modelgen one-op models against
TFLite Micro's Python interpreter on all three paths, for every broadcast form the
CMSIS-NN kernels distinguish (equal shapes, a single value, batch / row / pixel / channel
broadcast, both operands broadcasting, lower ranks, constant operands) and every
BATCH_MATMUL option (adj_x, adj_y, batch broadcast, ranks 2-4, constant rhs).  (The
families' CMSIS-NN vectors and measured counts are run by the tests that read ../shared.)"""
import numpy as np
import pytest

from armsim.pipeline import model, profiler
from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline.prepare import prepare
from armsim.pipeline.build import Build
from model_helpers import tflm_outputs

PATHS = ("simd", "scalar", "reference")


def _run_all_paths(model_bytes, xs):
    want = tflm_outputs(model_bytes, xs)[0]
    m = model.parse(model_bytes)
    profiles = {}
    for path in PATHS:
        p = profiler.run(m, Build(path), inputs=xs)
        np.testing.assert_array_equal(p.outputs[0], want, err_msg=path)
        profiles[path] = p
    return profiles


def _input(shape, seed):
    return np.random.default_rng(seed).integers(-128, 128, shape, dtype=np.int8)


BROADCASTS = [
    ((2, 3, 4, 5), (2, 3, 4, 5)),       # no broadcast
    ((2, 3, 4, 5), (1,)),               # a single value (second)
    ((1, 1, 1, 1), (2, 3, 4, 5)),       # a single value (first)
    ((2, 3, 4, 5), (1, 3, 4, 5)),       # batch
    ((2, 3, 4, 5), (2, 1, 4, 5)),       # rows
    ((2, 3, 4, 5), (2, 3, 1, 5)),       # pixels
    ((2, 3, 4, 1), (2, 3, 4, 5)),       # channels (first)
    ((2, 3, 4, 5), (2, 3, 4, 1)),       # channels (second)
    ((1, 3, 1, 5), (2, 1, 4, 5)),       # both, in different dims
    ((2, 1, 4, 1), (1, 3, 1, 5)),
    ((3, 4, 5), (5,)),                  # lower ranks
    ((4, 6), (1, 6)),
    ((6,), (6,)),
]


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("shapes", BROADCASTS, ids=lambda s: f"{s[0]}x{s[1]}".replace(" ", ""))
def test_max_min_match_tflm(op, shapes):
    g = modelgen.Graph(seed=3)
    a = g.input(shapes[0], scale=0.05, zero_point=2)
    b = g.input(shapes[1], scale=0.05, zero_point=2)
    g.output(getattr(g, op)(a, b))
    profiles = _run_all_paths(g.build(), [_input(shapes[0], 4), _input(shapes[1], 5)])
    assert profiles["simd"].ops[0].kernel.startswith(f"arm_{op}_s8")
    assert profiles["reference"].ops[0].kernel.startswith(
        "tflite::reference_ops::MaximumMinimumBroadcastSlow")


@pytest.mark.parametrize("first", [False, True], ids=["const_second", "const_first"])
def test_max_min_with_a_constant_operand(first):
    g = modelgen.Graph(seed=3)
    x = g.input((1, 4, 4, 3), scale=0.05, zero_point=-1)
    c = g.tensor((1, 1, 1, 3), "int8", 0.05, -1, data=np.array([-20, 0, 40], np.int8))
    y = g.maximum(c, x) if first else g.maximum(x, c)
    g.output(g.minimum(y, g.tensor((1,), "int8", 0.05, -1, data=np.array([30], np.int8))))
    _run_all_paths(g.build(), [_input((1, 4, 4, 3), 6)])


def test_max_min_errors_name_the_op():
    g = modelgen.Graph(seed=0)
    a = g.input((2, 3), scale=0.05, zero_point=0)
    b = g.input((3, 2), scale=0.05, zero_point=0)
    y = g.tensor((2, 3), "int8", 0.05, 0)
    g._op(modelgen._BO.MAXIMUM, [a, b], [y])
    g.output(y)
    with pytest.raises(ModelError, match=r"MAXIMUM.*do not broadcast"):
        prepare(model.parse(g.build()))


def _bmm_shape(batch, rows, cols, adj):
    return tuple(batch) + ((cols, rows) if adj else (rows, cols))


BMM = [   # lhs batch, rhs batch, M, K, N
    ((), (), 5, 7, 6),                          # rank 2
    ((3,), (3,), 4, 8, 5),                      # rank 3
    ((2, 3), (2, 3), 3, 6, 4),                  # rank 4
    ((3,), (1,), 4, 8, 5),                      # rhs [1, K, N]: batch folded into the rows
    ((2, 3), (2, 1), 3, 6, 4),                  # rank 4, folded
    ((1,), (3,), 4, 8, 5),                      # lhs broadcast
    ((2, 1), (1, 3), 3, 5, 4),                  # both broadcast
    ((), (2, 3), 3, 5, 4),                      # lhs rank 2, rhs rank 4
    ((3,), (2, 3), 3, 5, 4),                    # ranks 3 and 4
]


@pytest.mark.parametrize("adj", [(False, False), (False, True), (True, False), (True, True)],
                         ids=["xy", "xY", "Xy", "XY"])
@pytest.mark.parametrize("dims", BMM, ids=lambda d: f"{d[0]}x{d[1]}".replace(" ", ""))
def test_batch_matmul_matches_tflm(dims, adj):
    lb, rb, m_, k, n = dims
    adj_x, adj_y = adj
    g = modelgen.Graph(seed=7)
    sl, sr = _bmm_shape(lb, m_, k, adj_x), _bmm_shape(rb, k, n, adj_y)
    a = g.input(sl, scale=0.04, zero_point=-3)
    b = g.input(sr, scale=0.03, zero_point=5)
    g.output(g.batch_matmul(a, b, adj_x=adj_x, adj_y=adj_y, out_zero_point=-9))
    profiles = _run_all_paths(g.build(), [_input(sl, 8), _input(sr, 9)])
    chain = profiles["simd"].ops[0].kernel
    assert chain.startswith("arm_batch_matmul_s8 > arm_nn_vec_mat_mult_t_s8")
    assert ("TransposeRowsColumns" in chain) == (adj_x or not adj_y)
    assert profiles["reference"].ops[0].kernel.startswith(
        "tflite::reference_ops::BatchMatMul<int8_t, int32_t>")


@pytest.mark.parametrize("adj_y", [False, True])
def test_batch_matmul_with_constant_rhs(adj_y):
    """A constant rhs (weights) is transposed once, on the first invocation: the profiled
    steady state runs no TransposeRowsColumns for it."""
    g = modelgen.Graph(seed=7)
    a = g.input((2, 4, 6), scale=0.04, zero_point=1)
    w = g.tensor((5, 6) if adj_y else (6, 5), "int8", 0.02, 0,
                 data=g._random_weights((5, 6) if adj_y else (6, 5)))
    g.output(g.batch_matmul(a, w, adj_y=adj_y))
    profiles = _run_all_paths(g.build(), [_input((2, 4, 6), 10)])
    assert "TransposeRowsColumns" not in profiles["simd"].ops[0].kernel


def test_batch_matmul_arena_holds_the_transposed_operands():
    from armsim.pipeline import arena
    g = modelgen.Graph(seed=7)
    a = g.input((2, 4, 6), scale=0.04, zero_point=1)
    b = g.input((2, 4, 5), scale=0.04, zero_point=1)
    g.output(g.batch_matmul(a, b, adj_x=True))
    m = model.parse(g.build())
    step = prepare(m)[0]
    # quantization 28 -> 32; per transposed tensor: eval tensor 16, dims 16, data 48 / 40 -> 48
    assert step.persistent_bytes == 32 + (16 + 16 + 48) + (16 + 16 + 48)
    plan = arena.plan(m, prepare(m), Build("simd"))
    assert plan.tail_parts["op_data"] == 4 + 36 + 192        # params, CMSIS-NN OpData, buffers


def test_batch_matmul_errors_name_the_op():
    g = modelgen.Graph(seed=0)
    a = g.input((2, 3, 4), scale=0.05, zero_point=0)
    b = g.input((3, 4, 5), scale=0.05, zero_point=0)
    y = g.tensor((2, 3, 5), "int8", 0.05, 0)
    opts = (modelgen.tflite.BatchMatMulOptionsStart, [], modelgen.tflite.BatchMatMulOptionsEnd)
    g._op(modelgen._BO.BATCH_MATMUL, [a, b], [y], modelgen._OPT.BatchMatMulOptions, opts)
    g.output(y)
    with pytest.raises(ModelError, match=r"BATCH_MATMUL.*do not broadcast"):
        prepare(model.parse(g.build()))


# --- kernel level: seeded property tests against the numpy oracles ------------------------

from hypothesis import HealthCheck, assume, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from armsim.pipeline.harness import run_case  # noqa: E402
from armsim.kernels.families.maximum import row_scalar_overrun  # noqa: E402
from armsim.kernels.families import oracle  # noqa: E402

PROPERTY = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))
i8 = st.integers(-128, 127)


def _all_paths_equal_oracle(case):
    want = oracle(case)
    for path in PATHS:
        np.testing.assert_array_equal(run_case(case, Build(path)).output, want, err_msg=path)


@st.composite
def max_min_cases(draw, family):
    out = [draw(st.integers(1, 4)) for _ in range(4)]
    s1 = [d if draw(st.booleans()) else 1 for d in out]
    s2 = [d if draw(st.booleans()) else 1 for d in out]
    out = [max(a, b) for a, b in zip(s1, s2)]              # what the operands broadcast to
    n1, n2 = int(np.prod(s1)), int(np.prod(s2))
    return {"family": family, "case": "property",
            "input_1_dims": dict(zip("nhwc", s1)), "input_2_dims": dict(zip("nhwc", s2)),
            "output_dims": dict(zip("nhwc", out)),
            "input": draw(st.lists(i8, min_size=n1, max_size=n1)),
            "input2": draw(st.lists(i8, min_size=n2, max_size=n2))}


@seed(93)
@PROPERTY
@given(max_min_cases("maximum"))
def test_property_maximum(case):
    assume(not row_scalar_overrun(case))          # the kernel's own bug, tested below
    _all_paths_equal_oracle(case)


@seed(94)
@PROPERTY
@given(max_min_cases("minimum"))
def test_property_minimum(case):
    assume(not row_scalar_overrun(case))
    _all_paths_equal_oracle(case)


@pytest.mark.parametrize("family", ["maximum", "minimum"])
def test_row_scalar_branch_overruns_in_cmsis_nn(family):
    """arm_maximum_s8 / arm_minimum_s8 step a one-element row's pointer twice per row (see
    families.maximum.row_scalar_overrun): for [1, 2, 1, 1] against [1, 1, 2, 1] the second
    output row takes the byte after input 1.  The port does the same; the reference path
    (TFLM's MaximumMinimumBroadcastSlow) and the oracle do not."""
    from armsim.cpu import machine
    fn = np.maximum if family == "maximum" else np.minimum
    case = {"family": family, "case": "overrun",
            "input_1_dims": {"n": 1, "h": 2, "w": 1, "c": 1},
            "input_2_dims": {"n": 1, "h": 1, "w": 2, "c": 1},
            "output_dims": {"n": 1, "h": 2, "w": 2, "c": 1},
            "input": [5, 7] if family == "maximum" else [-5, -7], "input2": [-3, 3]}
    assert row_scalar_overrun(case)
    want = oracle(case)
    np.testing.assert_array_equal(run_case(case, Build("reference")).output, want)
    for path in ("simd", "scalar"):
        result = run_case(case, Build(path))
        after = int(machine.read(result.m, result.addr["input"] + 2, 1, np.int8)[0])
        np.testing.assert_array_equal(result.output[:2], want[:2])
        np.testing.assert_array_equal(result.output[2:], fn(after, [-3, 3]))
        assert not np.array_equal(result.output, want), path


@st.composite
def bmm_cases(draw):
    b, h = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    lb, lh = draw(st.sampled_from([1, b])), draw(st.sampled_from([1, h]))
    rb, rh = (b, h) if (lb, lh) != (b, h) or draw(st.booleans()) else (1, 1)
    m_, k, n = draw(st.integers(1, 5)), draw(st.integers(1, 13)), draw(st.integers(1, 5))
    nl, nr = lb * lh * m_ * k, rb * rh * n * k
    lo = draw(st.integers(-128, 100))
    return {"family": "batch_matmul", "case": "property",
            "bmm_params": {"adj_x": False, "adj_y": False, "fc_params": {
                "input_offset": draw(st.integers(-127, 128)),
                "filter_offset": draw(st.integers(-127, 128)),
                "output_offset": draw(st.integers(-128, 127)),
                "activation": {"min": lo, "max": draw(st.integers(lo, 127))}}},
            "quant_params": {"multiplier": draw(st.integers(1 << 30, (1 << 31) - 1)),
                             "shift": draw(st.integers(-12, 1))},
            "input_lhs_dims": {"n": lb, "h": lh, "w": m_, "c": k},
            "input_rhs_dims": {"n": rb, "h": rh, "w": n, "c": k},
            "output_dims": {"n": max(lb, rb), "h": max(lh, rh), "w": m_, "c": n},
            "input": draw(st.lists(i8, min_size=nl, max_size=nl)),
            "input2": draw(st.lists(i8, min_size=nr, max_size=nr))}


@seed(95)
@PROPERTY
@given(bmm_cases())
def test_property_batch_matmul(case):
    _all_paths_equal_oracle(case)
