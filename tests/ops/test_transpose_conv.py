"""TRANSPOSE_CONV: arm_transpose_conv_wrapper_s8 (both of its paths) against the CMSIS-NN
vectors and the measured counts of ../shared, and test-built models against TFLM's Python
interpreter on all three paths.  (tests/kernels/test_oracle.py, test_reference_path.py,
test_trace_equivalence.py, test_reference_cycles.py and test_failed_it.py pick the family's
cases up from ../shared as well.)"""
import json

import numpy as np
import pytest
from conftest import REFERENCE, VECTORS, shared_cases
from model_helpers import tflm_reference

from armsim.pipeline import arena, model, prepare, profiler
from armsim.data import modelgen
from armsim.kernels.families.transpose_conv import buffer_sizes
from armsim.errors import CaseError
from armsim.pipeline.harness import run_case
from armsim.errors import ModelError
from armsim.pipeline.build import Build

FAMILY = "transpose_conv"
VECTOR_FILES = shared_cases(VECTORS, FAMILY)
REFERENCE_FILES = shared_cases(REFERENCE, FAMILY)
PATHS = ("simd", "scalar", "reference")


def _load(path):
    return json.loads(path.read_text())


def test_the_directories_hold_transpose_conv_cases():
    assert len(VECTOR_FILES) == 6 and len(REFERENCE_FILES) == 2
    dispatch = {_load(f)["wrapper_dispatch"] for f in VECTOR_FILES + REFERENCE_FILES}
    assert dispatch == {"arm_convolve_s8", "arm_transpose_conv_s8"}


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", VECTOR_FILES + REFERENCE_FILES, ids=lambda p: p.stem)
def test_bit_exact_through_every_entry_point(file, path):
    case = _load(file)
    expected = np.asarray(case["output_ref"], np.int8)
    for function in dict.fromkeys([case["function"]] + case.get("functions_validated", [])):
        result = run_case(case, Build(path), function=function)
        np.testing.assert_array_equal(result.output, expected, err_msg=f"{function} {path}")
        if function == "arm_transpose_conv_wrapper_s8":
            assert result.kernel_path[1] == case["wrapper_dispatch"]


def test_buffer_sizes():
    reverse = _load(REFERENCE / "tconv_s8_3x3x24_o8_k3_s2.json")   # 24 channels, stride 2
    # ctx: arm_convolve_s8's im2col for rhs_cols 3*3*24 = 216; reversed filter 8*3*3*24
    assert buffer_sizes(reverse) == (2 * 216 * 2, 1728)
    scatter = _load(REFERENCE / "tconv_s8_6x6x8_o8_k3_s2.json")     # 8 channels
    # ((6 - 1) * 2 + max(3, 2)) * 8 output channels * max(3, 2) rows * 4 bytes
    assert buffer_sizes(scatter) == (13 * 8 * 3 * 4, 0)


def test_dilation_is_refused():
    case = _load(VECTORS / "transpose_conv_3.json")
    case["transpose_conv_params"]["dilation"] = {"h": 2, "w": 1}
    with pytest.raises(CaseError, match="dilation"):
        run_case(case, Build("simd"))


# --- models against TFLM -------------------------------------------------------------------

def _model(shape, out_channels, seed=3, **options):
    g = modelgen.Graph(seed=seed)
    x = g.input(shape, scale=0.05, zero_point=-4)
    g.output(g.transpose_conv(x, out_channels, **options))
    data = g.build()
    return data, model.parse(data, "transpose_conv.tflite")


MODELS = {
    "same_s2": ((1, 4, 5, 3), 4, {"kernel": (3, 3), "stride": (2, 2), "padding": "SAME"}),
    "valid_s1x2": ((1, 4, 5, 3), 4, {"kernel": (3, 2), "stride": (1, 2), "padding": "VALID"}),
    "valid_s2_no_bias": ((1, 3, 4, 5), 3, {"kernel": (2, 2), "stride": (2, 2), "padding": "VALID",
                                               "use_bias": False}),
    "same_s3_batch2": ((2, 3, 3, 6), 5, {"kernel": (4, 3), "stride": (3, 3), "padding": "SAME"}),
    "reverse_same_s2": ((1, 3, 3, 20), 4, {"kernel": (3, 3), "stride": (2, 2), "padding": "SAME"}),
    "reverse_valid_s1": ((1, 4, 3, 17), 3, {"kernel": (2, 3), "stride": (1, 1), "padding": "VALID",
                                                "out_zero_point": 9}),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_bit_exact_vs_tflite_micro(name):
    shape, channels, options = MODELS[name]
    data, m = _model(shape, channels, **options)
    (x,) = profiler.random_inputs(m, seed=11)
    want = tflm_reference(data, x)
    reverse = shape[-1] > 16 and max(options["stride"]) <= 2
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=[x])
        assert np.array_equal(prof.outputs[0], want), (name, path)
        if path != "reference":
            leaf = "arm_convolve_s8" if reverse else "arm_transpose_conv_s8"
            assert prof.ops[0].kernel.split(" > ")[1] == leaf


@pytest.mark.parametrize("activation", ["RELU", "RELU6", "RELU_N1_TO_1"])
def test_fused_activation_follows_each_tflm_kernel(activation):
    """TFLM's reference Prepare applies the fused activation; its CMSIS-NN Prepare passes
    kTfLiteActNone, so the CMSIS-NN paths clamp to the int8 range only.  The reference
    path equals the interpreter; the CMSIS-NN output clamped to the activation range
    equals it too, and differs from it where the activation clamps."""
    data, m = _model((1, 4, 4, 3), 4, kernel=(3, 3), stride=(2, 2), padding="SAME",
                     activation=activation, out_zero_point=-10)
    (step,) = prepare.prepare(m)
    act = step.case["transpose_conv_params"]["activation"]
    assert step.cmsis_case["transpose_conv_params"]["activation"] == \
        {"min": -128, "max": 127}
    (x,) = profiler.random_inputs(m, seed=2)
    want = tflm_reference(data, x)
    assert np.array_equal(profiler.run(m, Build("reference"), inputs=[x]).outputs[0], want)
    for path in ("simd", "scalar"):
        got = profiler.run(m, Build(path), inputs=[x]).outputs[0]
        assert np.array_equal(np.clip(got, act["min"], act["max"]), want), path
        assert not np.array_equal(got, want), path


def test_output_shape_operand_must_match_the_output_tensor():
    g = modelgen.Graph(seed=1)
    x = g.input((1, 3, 3, 2), scale=0.05, zero_point=0)
    g.output(g.transpose_conv(x, 2, kernel=(3, 3), stride=(2, 2), padding="SAME"))
    shape_tensor = next(t for t in g.tensors if t.name.endswith("/output_shape"))
    shape_tensor.data = np.array([1, 7, 6, 2], np.int32)
    m = model.parse(g.build(), "bad_shape.tflite")
    message = r"bad_shape.tflite: .*output shape operand \[1, 7, 6, 2\]"
    with pytest.raises(ModelError, match=message):
        prepare.prepare(m)


def test_arena_scratch_buffers_as_tflm_requests_them():
    _, m = _model((1, 3, 3, 20), 4, kernel=(3, 3), stride=(2, 2), padding="SAME")
    (step,) = prepare.prepare(m)
    ctx, rev = buffer_sizes(step.cmsis_case)
    assert rev == 20 * 3 * 3 * 4 and ctx > 0
    simd = [b.size for b in arena.plan(m, [step], Build("simd")).buffers if b.kind == "scratch"]
    assert simd == [ctx, rev]
    ref = [b.size for b in arena.plan(m, [step], Build("reference")).buffers if b.kind == "scratch"]
    assert ref == [6 * 6 * 4 * 4]                        # output flat size * sizeof(int32)


def test_buffer_size_quirk_overflows_the_scratch():
    """arm_transpose_conv_s8_get_buffer_size takes MAX(filter w, stride.h) where the kernel
    uses MAX(filter w, stride.w): with a filter narrower than stride.w > stride.h, TFLM's
    buffer is too small and the kernel writes past it (on a device: into the arena).  The
    simulator reports that write as a HardFault; the reference path is unaffected."""
    from armsim.cpu import machine
    g = modelgen.Graph(seed=3)
    x = g.input((1, 3, 4, 3), scale=0.05, zero_point=-4)
    g.output(g.transpose_conv(x, 4, kernel=(3, 1), stride=(1, 2), padding="VALID"))
    data = g.build()
    m = model.parse(data, "quirk.tflite")
    (xi,) = profiler.random_inputs(m, seed=1)
    with pytest.raises(machine.MemoryFault, match="outside every region"):
        profiler.run(m, Build("simd"), inputs=[xi])
    assert np.array_equal(profiler.run(m, Build("reference"), inputs=[xi]).outputs[0],
                          tflm_reference(data, xi))
