"""TRANSPOSE, PAD and PADV2 as whole models: armsim.data.modelgen one-op models against TFLite
Micro's Python interpreter on all three paths, for every permutation of ranks 1-4 and
paddings on every dimension; the errors Prepare reports; a MobileNetV2-style model whose
graph starts with TRANSPOSE profiled end to end.  (The families' CMSIS-NN vectors and
measured counts are run by the tests that read ../shared.)"""
import itertools

import numpy as np
import pytest

from armsim.pipeline import model, profiler
from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline.prepare import prepare
from armsim.pipeline.build import Build
from model_helpers import tflm_reference

PATHS = ("simd", "scalar", "reference")


def _run_all_paths(model_bytes, x):
    """The output of every path (one op or many), checked against TFLM; returns profiles."""
    want = tflm_reference(model_bytes, x)
    m = model.parse(model_bytes)
    profiles = {}
    for path in PATHS:
        p = profiler.run(m, Build(path), inputs=[x])
        np.testing.assert_array_equal(p.outputs[0], want, err_msg=path)
        profiles[path] = p
    return profiles


def _input(shape, seed=0):
    return np.random.default_rng(seed).integers(-128, 128, shape, dtype=np.int8)


SHAPES = {1: (7,), 2: (3, 5), 3: (2, 3, 4), 4: (2, 3, 4, 5)}
PERMUTATIONS = [p for rank in SHAPES for p in itertools.permutations(range(rank))
                if not (rank == 2 and p == (0, 1))]


@pytest.mark.parametrize("perm", PERMUTATIONS, ids=lambda p: "".join(map(str, p)))
def test_transpose_matches_tflm(perm):
    g = modelgen.Graph(seed=len(perm))
    x = g.input(SHAPES[len(perm)], scale=0.02, zero_point=-5)
    g.output(g.transpose(x, list(perm)))
    profiles = _run_all_paths(g.build(), _input(SHAPES[len(perm)]))
    assert profiles["simd"].ops[0].kernel.startswith("arm_transpose_s8")
    assert profiles["reference"].ops[0].kernel.startswith("tflite::reference_ops::Transpose")


def test_identity_transpose_of_a_matrix_is_a_transpose_on_the_cmsis_nn_build():
    """TFLM's CMSIS-NN Eval hands a 2-D TRANSPOSE to arm_transpose_s8, whose num_dims == 2
    path swaps rows and columns without reading the permutation: an identity [0, 1] perm
    transposes the matrix there (the reference kernel, and TFLM's interpreter, copy it)."""
    g = modelgen.Graph(seed=0)
    x = g.input((3, 5), scale=0.02, zero_point=0)
    g.output(g.transpose(x, [0, 1]))
    b = g.build()
    xin = _input((3, 5))
    np.testing.assert_array_equal(tflm_reference(b, xin), xin)
    m = model.parse(b)
    ref = profiler.run(m, Build("reference"), inputs=[xin]).outputs[0]
    np.testing.assert_array_equal(ref, xin)
    for path in ("simd", "scalar"):
        out = profiler.run(m, Build(path), inputs=[xin]).outputs[0]
        np.testing.assert_array_equal(out.ravel(), xin.T.ravel(), err_msg=path)


def test_transpose_errors_name_the_op():
    g = modelgen.Graph(seed=0)
    x = g.input((1, 2, 2, 2, 2), scale=0.02, zero_point=0)
    g.output(g.transpose(x, [0, 1, 2, 4, 3]))
    with pytest.raises(ModelError, match=r"TRANSPOSE.*rank 5"):
        prepare(model.parse(g.build()))
    g = modelgen.Graph(seed=0)
    x = g.input((2, 3), scale=0.02, zero_point=0)
    p = g.input((2,), dtype="int32")
    y = g.tensor((3, 2), "int8", 0.02, 0)
    g._op(modelgen._BO.TRANSPOSE, [x, p], [y])
    g.output(y)
    with pytest.raises(ModelError, match="perm .* must be constant"):
        prepare(model.parse(g.build()))


PADDINGS = [
    ((2, 3, 4, 5), [[0, 0], [1, 1], [1, 1], [0, 0]]),     # image style (the row-copy path)
    ((2, 3, 4, 5), [[1, 0], [0, 2], [3, 0], [1, 2]]),     # every dim, channels padded
    ((1, 2, 2, 3), [[0, 0], [0, 0], [0, 0], [2, 1]]),     # channels only
    ((3, 4, 5), [[1, 1], [0, 2], [1, 0]]),                # rank 3
    ((4, 6), [[2, 0], [1, 3]]),                           # rank 2
    ((5,), [[3, 2]]),                                     # rank 1
    ((1, 2, 3, 4), [[0, 0], [0, 0], [0, 0], [0, 0]]),     # nothing to pad
]


@pytest.mark.parametrize("padv2", [False, True], ids=["PAD", "PADV2"])
@pytest.mark.parametrize("shape,paddings", PADDINGS, ids=[f"p{k}" for k in range(len(PADDINGS))])
def test_pad_matches_tflm(shape, paddings, padv2):
    g = modelgen.Graph(seed=1)
    x = g.input(shape, scale=0.03, zero_point=-7)
    g.output(g.pad_v2(x, paddings, 93) if padv2 else g.pad(x, paddings))
    profiles = _run_all_paths(g.build(), _input(shape, seed=2))
    assert profiles["simd"].ops[0].kernel.startswith("arm_pad_s8")
    assert profiles["scalar"].ops[0].kernel.startswith("arm_pad_s8")
    assert profiles["reference"].ops[0].kernel.startswith("tflite::reference_ops::PadImpl")


def test_pad_errors_name_the_op():
    g = modelgen.Graph(seed=0)
    x = g.input((1, 2, 2, 2, 2), scale=0.02, zero_point=0)
    g.output(g.pad(x, [[0, 0]] * 4 + [[1, 1]]))
    with pytest.raises(ModelError, match=r"PAD.*rank 5"):
        prepare(model.parse(g.build()))
    g = modelgen.Graph(seed=0)
    x = g.input((2, 3), scale=0.02, zero_point=0)
    y = g.pad_v2(x, [[1, 0], [0, 1]], 5)
    g.tensors[g.ops[-1].inputs[2]].zero_point = 3             # not the output's zero point
    g.output(y)
    with pytest.raises(ModelError, match="constant_values .* scale and zero point"):
        prepare(model.parse(g.build()))


def mobilenet_v2_nchw(seed=0):
    """A MobileNetV2-style int8 model as PyTorch exports it: an NCHW input transposed to
    NHWC first, a 3x3 stride-2 stem, inverted residual blocks (1x1 expand RELU6, 3x3
    depthwise RELU6, 1x1 project, residual ADD where shapes allow), a 1x1 head, global
    mean, fully connected, softmax.  Seeded random weights, scales from `calibrated`."""
    g = modelgen.Graph(seed=seed, description="MobileNetV2-style, NCHW input")
    x = g.input((1, 3, 32, 32), scale=0.0078125, zero_point=-1, name="input_nchw")
    x = g.transpose(x, [0, 2, 3, 1], name="to_nhwc")

    def conv(x, c, k=1, stride=1, act="RELU6"):
        cal = g.calibrated(x, k * k * g.shape(x)[3], channels=c)
        return g.conv2d(x, c, (k, k), stride=(stride, stride), padding="SAME",
                        activation=act, **cal)

    def block(x, expand, out_c, stride):
        y = conv(x, g.shape(x)[3] * expand)
        cal = g.calibrated(y, 9, channels=g.shape(y)[3])
        y = g.depthwise_conv2d(y, (3, 3), stride=(stride, stride), padding="SAME",
                               activation="RELU6", **cal)
        y = conv(y, out_c, act="NONE")
        if stride == 1 and g.shape(x) == g.shape(y):
            y = g.add(x, y, out_scale=0.08)
        return y
    x = conv(x, 8, k=3, stride=2)
    for expand, out_c, stride in ((1, 8, 1), (4, 12, 2), (4, 12, 1), (4, 16, 2)):
        x = block(x, expand, out_c, stride)
    x = conv(x, 32)
    x = g.mean(x, axes=(1, 2), keep_dims=False)
    g.output(g.softmax(g.fully_connected(x, 10, **g.calibrated(x, 32, out_scale=0.15))))
    return g.build()


def test_mobilenet_v2_starting_with_transpose_profiles_end_to_end(tmp_path):
    """`armsim profile` runs every op of the model simulated (TRANSPOSE by
    arm_transpose_s8), and the three paths match TFLM's interpreter."""
    import json

    from click.testing import CliRunner

    from armsim.cli.main import main
    model_bytes = mobilenet_v2_nchw()
    path = tmp_path / "mobilenet_v2_nchw.tflite"
    path.write_bytes(model_bytes)
    out = tmp_path / "profile.json"
    result = CliRunner().invoke(main, ["profile", str(path), "--json", str(out)])
    assert result.exit_code == 0, result.output
    ops = json.loads(out.read_text())["ops"]
    assert ops[0]["op"] == "TRANSPOSE" and ops[0]["kernel"].startswith("arm_transpose_s8")
    assert all(o["simulated"] and o["instructions"] > 0 for o in ops)
    assert "not simulated" not in result.output
    _run_all_paths(model_bytes, _input((1, 3, 32, 32), seed=3))


# --- kernel level: seeded property tests against the numpy oracles ------------------------

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from armsim.pipeline.harness import run_case  # noqa: E402
from armsim.kernels.families import oracle  # noqa: E402

PROPERTY = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def _all_paths_equal_oracle(case):
    want = oracle(case)
    for path in PATHS:
        np.testing.assert_array_equal(run_case(case, Build(path)).output, want, err_msg=path)


@st.composite
def transpose_cases(draw):
    rank = draw(st.integers(1, 4))
    shape = [draw(st.integers(1, 5)) for _ in range(rank)]
    # rank 2: only the swap (arm_transpose_s8 ignores a 2-D permutation, see above)
    perm = [1, 0] if rank == 2 else draw(st.permutations(range(rank)))
    pad = [0] * (4 - rank)
    size = int(np.prod(shape))
    return {"family": "transpose", "case": "property",
            "input_dims": dict(zip("nhwc", shape + pad)),
            "output_dims": dict(zip("nhwc", [shape[p] for p in perm] + pad)),
            "transpose_params": {"num_dims": rank, "permutations": list(perm)},
            "input": draw(st.lists(st.integers(-128, 127), min_size=size, max_size=size))}


@seed(91)
@PROPERTY
@given(transpose_cases())
def test_property_transpose(case):
    _all_paths_equal_oracle(case)


@st.composite
def pad_cases(draw):
    dims = {k: draw(st.integers(1, 4)) for k in "nhwc"}
    pre = {k: draw(st.integers(0, 2)) for k in "nhwc"}
    post = {k: draw(st.integers(0, 2)) for k in "nhwc"}
    size = int(np.prod(list(dims.values())))
    return {"family": "pad", "case": "property", "input_dims": dims, "pre_pad": pre,
            "post_pad": post, "pad_value": draw(st.integers(-128, 127)),
            "input": draw(st.lists(st.integers(-128, 127), min_size=size, max_size=size))}


@seed(92)
@PROPERTY
@given(pad_cases())
def test_property_pad(case):
    _all_paths_equal_oracle(case)
