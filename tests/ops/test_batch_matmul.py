"""BATCH_MATMUL as whole models: armsim.data.modelgen one-op models against TFLite Micro's
Python interpreter on all three paths for every option (adj_x, adj_y, batch broadcast,
ranks 2-4, constant rhs); the arena's transposed operands; seeded property tests of the
family against its numpy oracle.  (The family's CMSIS-NN vectors and measured counts are
run by the tests that read ../shared.)"""
import pytest
from hypothesis import given, seed
from hypothesis import strategies as st

from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline import model
from armsim.pipeline.build import Build
from armsim.pipeline.prepare import prepare
from conftest import PROPERTY, all_paths_equal_oracle
from model_helpers import random_int8, run_on_every_path


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
    profiles = run_on_every_path(g.build(), [random_int8(sl, 8), random_int8(sr, 9)])
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
    profiles = run_on_every_path(g.build(), [random_int8((2, 4, 6), 10)])
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
            "input": draw(st.lists(st.integers(-128, 127), min_size=nl, max_size=nl)),
            "input2": draw(st.lists(st.integers(-128, 127), min_size=nr, max_size=nr))}


@seed(95)
@PROPERTY
@given(bmm_cases())
def test_property_batch_matmul(case):
    all_paths_equal_oracle(case)
