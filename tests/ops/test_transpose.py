"""TRANSPOSE as whole models: armsim.data.modelgen one-op models against TFLite Micro's Python
interpreter on all three paths for every permutation of ranks 1-4; the errors Prepare
reports; a MobileNetV2-style model whose graph starts with TRANSPOSE profiled end to end;
seeded property tests of the family against its numpy oracle.  (The family's CMSIS-NN
vectors and measured counts are run by the tests that read ../shared.)"""
import itertools

import numpy as np
import pytest
from hypothesis import given, seed
from hypothesis import strategies as st

from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline import model, profiler
from armsim.pipeline.build import Build
from armsim.pipeline.prepare import prepare
from conftest import PROPERTY, all_paths_equal_oracle
from model_helpers import random_int8, run_on_every_path, tflm_reference


SHAPES = {1: (7,), 2: (3, 5), 3: (2, 3, 4), 4: (2, 3, 4, 5)}


PERMUTATIONS = [p for rank in SHAPES for p in itertools.permutations(range(rank))
                if not (rank == 2 and p == (0, 1))]


@pytest.mark.parametrize("perm", PERMUTATIONS, ids=lambda p: "".join(map(str, p)))
def test_transpose_matches_tflm(perm):
    g = modelgen.Graph(seed=len(perm))
    x = g.input(SHAPES[len(perm)], scale=0.02, zero_point=-5)
    g.output(g.transpose(x, list(perm)))
    profiles = run_on_every_path(g.build(), [random_int8(SHAPES[len(perm)])])
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
    xin = random_int8((3, 5))
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
    run_on_every_path(model_bytes, [random_int8((1, 3, 32, 32), seed=3)])


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
    all_paths_equal_oracle(case)
