"""INT4 weights in .tflite models (issue 10): modelgen writes a CONV_2D / DEPTHWISE_CONV_2D /
FULLY_CONNECTED filter as a TFLite INT4 tensor (two values per byte, low nibble first), the
loader unpacks it (keeping the packed bytes), and the operators dispatch as TFLM's cmsis_nn
kernels do for kTfLiteInt4: arm_convolve_wrapper_s4, arm_depthwise_conv_wrapper_s4,
arm_fully_connected_s4 on simd / scalar; TFLM's reference kernels (filter unpacked into a
scratch buffer) on the reference path.  Whole models bit-exact with the tflite-micro Python
interpreter (which runs INT4 conv / depthwise (per-channel or per-tensor) and per-tensor
fully connected through its reference kernels), and what that interpreter refuses (INT4 with
INT16 activations, a per-channel INT4 fully connected) refused in one line."""
import json

import numpy as np
import pytest

from armsim.pipeline import arena, model, prepare, profiler
from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline.build import Build

from model_helpers import tflm_reference

PATHS = ("simd", "scalar", "reference")


def _conv_model(seed=21):
    """Every arm_convolve_wrapper_s4 leaf: 3x3 (arm_convolve_s4), 1x1 stride 1
    (arm_convolve_1x1_s4_fast), 1x1 stride 2 (arm_convolve_1x1_s4), per-tensor scales."""
    g = modelgen.Graph(seed=seed)
    x = g.input((1, 7, 6, 5), scale=0.02, zero_point=3)
    y = g.conv2d(x, 6, (3, 3), stride=(2, 1), padding="SAME", activation="RELU",
                 weight_type="int4")
    y = g.conv2d(y, 7, (1, 1), padding="VALID", weight_type="int4")
    y = g.conv2d(y, 5, (1, 1), stride=(2, 2), padding="VALID", weight_type="int4",
                 per_channel=False)
    g.output(y)
    return g


def _one_x_n_model(seed=22):
    """An input of height 1: arm_convolve_1_x_n_s4."""
    g = modelgen.Graph(seed=seed)
    x = g.input((1, 1, 12, 4), scale=0.02, zero_point=-5)
    g.output(g.conv2d(x, 3, (1, 3), padding="VALID", weight_type="int4"))
    return g


def _depthwise_model(seed=23):
    """arm_depthwise_conv_s4_opt (ch_mult 1) and the generic kernel (ch_mult 2, odd taps,
    per-tensor scale)."""
    g = modelgen.Graph(seed=seed)
    x = g.input((1, 6, 7, 4), scale=0.02, zero_point=1)
    y = g.depthwise_conv2d(x, (3, 3), padding="SAME", activation="RELU6", weight_type="int4")
    g.output(g.depthwise_conv2d(y, (3, 1), depth_multiplier=2, padding="VALID",
                                weight_type="int4", per_channel=False))
    return g


def _fc_model(seed=24):
    g = modelgen.Graph(seed=seed)
    x = g.input((2, 41), scale=0.02, zero_point=-2)
    y = g.fully_connected(x, 12, activation="RELU", weight_type="int4")
    g.output(g.fully_connected(y, 7, use_bias=False, weight_type="int4"))
    return g


MODELS = {"conv": (_conv_model, ["conv_s4"] * 3), "conv_1_x_n": (_one_x_n_model, ["conv_s4"]),
          "depthwise_conv": (_depthwise_model, ["depthwise_conv_s4"] * 2),
          "fully_connected": (_fc_model, ["fully_connected_s4"] * 2)}
CONV, DW = "arm_convolve_wrapper_s4", "arm_depthwise_conv_wrapper_s4"
LEAVES = {"conv": [[CONV, "arm_convolve_s4"], [CONV, "arm_convolve_1x1_s4_fast"],
                   [CONV, "arm_convolve_1x1_s4"]],
          "conv_1_x_n": [[CONV, "arm_convolve_1_x_n_s4"]],
          "depthwise_conv": [[DW, "arm_depthwise_conv_s4_opt"], [DW, "arm_depthwise_conv_s4"]],
          "fully_connected": [["arm_fully_connected_s4", "arm_nn_vec_mat_mult_t_s4"]] * 2}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_int4_model_bit_exact_vs_tflite_micro(name):
    build, families = MODELS[name]
    data = build().build()
    m = model.parse(data, f"{name}_int4.tflite")
    steps = prepare.prepare(m)
    assert [s.family for s in steps] == families
    (x,) = profiler.random_inputs(m, seed=11)
    want = tflm_reference(data, x)
    assert np.unique(want).size > 4
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=[x])
        np.testing.assert_array_equal(prof.outputs[0], want, err_msg=path)
        assert all(o.simulated for o in prof.ops)
        if path == "reference":
            assert all(o.kernel.startswith("tflite::tensor_utils::UnpackDenseInt4IntoInt8")
                       for o in prof.ops), [o.kernel for o in prof.ops]
        else:                             # the s4 entry point, then the leaf it picked
            assert [o.kernel.split(" > ")[:2] for o in prof.ops] == LEAVES[name], \
                [o.kernel for o in prof.ops]


def test_int4_tensor_is_packed_in_the_file_and_unpacked_by_the_loader():
    g = modelgen.Graph(seed=3)
    x = g.input((1, 5), scale=0.02, zero_point=0)
    values = np.array([[-8, 7, 1, -1, 0], [3, -3, 5, -5, 2], [0, 0, 0, 0, -8]])
    g.output(g.fully_connected(x, 3, weights=values, weight_type="int4"))
    m = model.parse(g.build(), "fc_int4.tflite")
    w = m.tensors[m.operators[0].inputs[1]]
    assert w.type == "INT4" and w.nbytes == 8                     # 15 values in 8 bytes
    np.testing.assert_array_equal(w.data, values)
    assert (int(w.packed[0]) & 0xFF) == 0x78                      # -8 low nibble, 7 high


def test_modelgen_refuses_int4_values_out_of_range():
    g = modelgen.Graph(seed=3)
    x = g.input((1, 4), scale=0.02, zero_point=0)
    with pytest.raises(modelgen.ModelGenError, match="int4 data outside -8..7"):
        g.fully_connected(x, 2, weights=np.full((2, 4), 9), weight_type="int4")


def _refused(g, what):
    data = g.build()
    with pytest.raises(ModelError) as e:
        prepare.prepare(model.parse(data, f"{what}.tflite"))
    message = str(e.value)
    assert "\n" not in message and "op 0" in message and "INT4" in message
    m = model.parse(data, f"{what}.tflite")
    (x,) = profiler.random_inputs(m, seed=1)
    with pytest.raises(Exception):                    # TFLM's interpreter refuses it as well
        tflm_reference(data, x)
    return message


@pytest.mark.parametrize("layer", ["conv2d", "depthwise_conv2d", "fully_connected"])
def test_int4_weights_with_int16_activations_are_refused_as_tflm_does(layer):
    g = modelgen.Graph(seed=4)
    if layer == "fully_connected":
        x = g.input((1, 8), scale=0.001, zero_point=0, dtype="int16")
        g.output(g.fully_connected(x, 4, weight_type="int4"))
    else:
        x = g.input((1, 4, 4, 3), scale=0.001, zero_point=0, dtype="int16")
        g.output(getattr(g, layer)(x, **({"out_channels": 2} if layer == "conv2d" else {}),
                                   weight_type="int4"))
    _refused(g, f"{layer}_16x4")


def test_per_channel_int4_fully_connected_is_refused_as_tflm_does():
    g = modelgen.Graph(seed=5)
    x = g.input((1, 8), scale=0.02, zero_point=0)
    g.output(g.fully_connected(x, 4, weight_type="int4", per_channel=True))
    assert "per-tensor only" in _refused(g, "fc_int4_per_channel")


def test_the_reference_arena_holds_the_unpacked_filter():
    """TFLM's reference CONV_2D asks for a scratch buffer of one byte per weight (it unpacks
    the INT4 filter into it); CMSIS-NN's kernels read the packed bytes."""
    m = model.parse(_one_x_n_model().build(), "conv_int4.tflite")
    steps = prepare.prepare(m)
    w = m.tensors[m.operators[0].inputs[1]]
    assert w.nbytes == (w.size + 1) // 2
    sizes = {path: [b.size for b in arena.plan(m, steps, Build(path)).buffers if b.kind != "tensor"]
             for path in ("simd", "reference")}
    assert w.size in sizes["reference"] and w.size not in sizes["simd"], sizes


def test_profile_shows_the_int4_weight_type(tmp_path):
    from click.testing import CliRunner

    from armsim.cli.main import main
    path = tmp_path / "dw_int4.tflite"
    path.write_bytes(_depthwise_model().build())
    out = tmp_path / "p.json"
    r = CliRunner().invoke(main, ["profile", str(path), "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "int8x4" in r.output
    assert [o["types"] for o in json.loads(out.read_text())["ops"]] == ["int8x4", "int8x4"]
