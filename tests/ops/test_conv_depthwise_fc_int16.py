"""16x8 kernels (int16 activations, int8 weights, int64 bias): the int16 families against
the CMSIS-NN vectors and the measured counts of ../shared, and test-built 16x8 models
against TFLM's Python interpreter on all three paths.  (tests/kernels/test_oracle.py,
test_reference_path.py, test_trace_equivalence.py, test_reference_cycles.py and
test_failed_it.py pick the families' cases up from ../shared as well.)"""
import numpy as np
import pytest
import tflite

from armsim.pipeline import arena, model, prepare, profiler
from armsim.data import modelgen
from armsim.errors import CaseError
from armsim.pipeline.harness import run_case
from armsim.kernels.families import oracle
from armsim.errors import ModelError
from armsim.pipeline.build import Build

from conftest import REFERENCE, VECTORS, expected_output, load_case, shared_cases
from model_helpers import tflm_reference

FAMILIES = ("fully_connected_s16", "conv_s16", "depthwise_conv_s16")
VECTOR_FILES = [f for fam in FAMILIES for f in shared_cases(VECTORS, fam)]
REFERENCE_FILES = [f for fam in FAMILIES for f in shared_cases(REFERENCE, fam)]
PATHS = ("simd", "scalar", "reference")


def test_the_directories_hold_the_int16_cases():
    assert len(VECTOR_FILES) >= 19 and len(REFERENCE_FILES) >= 3
    assert {load_case(f)["family"] for f in VECTOR_FILES} == set(FAMILIES)


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", VECTOR_FILES + REFERENCE_FILES, ids=lambda p: p.stem)
def test_bit_exact_through_every_entry_point(file, path):
    case = load_case(file)
    expected = expected_output(case).ravel()
    for function in dict.fromkeys([case["function"]] + case.get("functions_validated", [])):
        result = run_case(case, Build(path), function=function)
        assert result.output.dtype == np.int16
        np.testing.assert_array_equal(result.output, expected, err_msg=f"{function} {path}")
        np.testing.assert_array_equal(result.output, oracle(case))


def test_per_channel_is_not_an_s16_fully_connected_case():
    case = load_case(VECTORS / "fully_connected_int16.json")
    case["quant_params"] = {"per_channel": True}
    with pytest.raises(CaseError, match="per-tensor"):
        run_case(case, Build("simd"))


# --- models against TFLM -------------------------------------------------------------------

def _fc_model(seed=1):
    g = modelgen.Graph(seed=seed)
    x = g.input((2, 40), scale=0.001, zero_point=0, dtype="int16")
    y = g.fully_connected(x, 12, activation="RELU")
    g.output(g.fully_connected(y, 7, use_bias=False))
    return g


def _conv_model(seed=4):
    g = modelgen.Graph(seed=seed)
    x = g.input((1, 7, 6, 5), scale=0.001, zero_point=0, dtype="int16")
    y = g.conv2d(x, 6, (3, 3), stride=(2, 1), padding="SAME", activation="RELU")
    g.output(g.conv2d(y, 3, (2, 3), padding="VALID", dilation=(1, 2), per_channel=False))
    return g


def _depthwise_model(seed=5):
    g = modelgen.Graph(seed=seed)
    x = g.input((1, 6, 7, 4), scale=0.001, zero_point=0, dtype="int16")
    y = g.depthwise_conv2d(x, (3, 3), padding="SAME", activation="RELU6")     # the fast kernel
    y = g.depthwise_conv2d(y, (2, 2), depth_multiplier=2, stride=(2, 2), padding="VALID")
    g.output(g.depthwise_conv2d(y, (3, 2), dilation=(2, 1), padding="SAME"))
    return g


MODELS = {"fully_connected": _fc_model, "conv": _conv_model, "depthwise_conv": _depthwise_model}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_16x8_model_bit_exact_vs_tflite_micro(name):
    data = MODELS[name]().build()
    m = model.parse(data, f"{name}_16x8.tflite")
    steps = prepare.prepare(m)
    assert not any(s.host for s in steps), [s.host_reason for s in steps if s.host]
    (x,) = profiler.random_inputs(m, seed=11)
    want = tflm_reference(data, x)
    assert want.dtype == np.int16 and np.unique(want).size > 4
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=[x])
        np.testing.assert_array_equal(prof.outputs[0], want, err_msg=path)
        assert all(o.simulated for o in prof.ops)


def test_arena_holds_int16_tensors():
    m = model.parse(_fc_model().build(), "fc_16x8.tflite")
    plan = arena.plan(m, prepare.prepare(m), Build("simd"))
    tensors = {b.tensor: b.size for b in plan.buffers if b.kind == "tensor"}
    assert tensors[m.inputs[0]] == 2 * 40 * 2        # int16 input: two bytes a value


def test_int16_activations_with_int16_weights_are_refused_as_tflm_does():
    g = modelgen.Graph(seed=2)
    x = g.input((1, 8), scale=0.001, zero_point=0, dtype="int16")
    w = g.tensor((4, 8), "int16", 0.01, 0, data=np.arange(32).reshape(4, 8), name="w16")
    y = g.tensor((1, 4), "int16", 0.01, 0, name="y")
    g._op(tflite.BuiltinOperator.FULLY_CONNECTED, [x, w, -1], [y],
          tflite.BuiltinOptions.FullyConnectedOptions,
          (tflite.FullyConnectedOptionsStart, [], tflite.FullyConnectedOptionsEnd))
    g.output(y)
    data = g.build()
    with pytest.raises(ModelError) as e:
        prepare.prepare(model.parse(data, "w16.tflite"))
    assert "\n" not in str(e.value) and "INT16" in str(e.value) and "op 0" in str(e.value)
    with pytest.raises(Exception):                    # TFLM's interpreter refuses it as well
        tflm_reference(data, np.zeros((1, 8), np.int16))


def test_conv_without_bias_follows_each_tflm_kernel():
    """No bias: TFLM's CMSIS-NN glue runs the int32 path of arm_convolve_s16
    (convolve_wrapper<int32_t>, arm_nn_requantize), its reference kernel the int64 one
    (MultiplyByQuantizedMultiplier(int64_t)): the reference path equals the interpreter, the
    CMSIS-NN paths the oracle of the int32 case."""
    g = modelgen.Graph(seed=6)
    x = g.input((1, 5, 5, 4), scale=0.002, zero_point=0, dtype="int16")
    g.output(g.conv2d(x, 3, (3, 3), padding="SAME", use_bias=False))
    data = g.build()
    m = model.parse(data, "conv_no_bias.tflite")
    (step,) = prepare.prepare(m)
    assert step.case["is_int32_bias"] is False and step.cmsis_case["is_int32_bias"]
    (xv,) = profiler.random_inputs(m, seed=2)
    np.testing.assert_array_equal(profiler.run(m, Build("reference"), inputs=[xv]).outputs[0],
                                  tflm_reference(data, xv))
    cmsis_case = dict(step.cmsis_case, input=xv.ravel())
    for path in ("simd", "scalar"):
        np.testing.assert_array_equal(profiler.run(m, Build(path), inputs=[xv]).outputs[0].ravel(),
                                      oracle(cmsis_case))


def test_profile_shows_activation_and_weight_types(tmp_path):
    """`armsim profile` names each op's types: "int16x8" for a 16x8 layer, in the table and
    in the JSON."""
    import json

    from click.testing import CliRunner

    from armsim.cli.main import main
    path = tmp_path / "fc_16x8.tflite"
    path.write_bytes(_fc_model().build())
    out = tmp_path / "p.json"
    r = CliRunner().invoke(main, ["profile", str(path), "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "int16x8" in r.output
    assert [o["types"] for o in json.loads(out.read_text())["ops"]] == ["int16x8", "int16x8"]


def test_long_halfword_macs_are_smlalbb_on_the_dsp_build():
    """gcc -mcpu=cortex-m4 multiplies int16 x int8 into an int64 accumulator with SMLALBB (the
    FC's tail columns, the generic depthwise's MACs, the conv's columns past MAX_COL_COUNT;
    read off arm-none-eabi-objdump of CMSIS-NN 99f736a); the Cortex-M3 has no SMLALBB, gcc
    emits SMLAL: the same MACs under another mnemonic."""
    counts = {}
    for stem in ("fully_connected_int16", "dw_int16xint8", "int16xint8"):
        case = load_case(VECTORS / f"{stem}.json")
        counts[stem] = {path: run_case(case, Build(path)).counts() for path in ("simd", "scalar")}
        assert "smlalbb" not in counts[stem]["scalar"] and counts[stem]["simd"]["smlalbb"] > 0
    fc = load_case(VECTORS / "fully_connected_int16.json")
    batches, rows = fc["input_dims"]["n"], fc["output_dims"]["c"]
    cols = fc["filter_dims"]["n"]
    assert counts["fully_connected_int16"]["simd"]["smlalbb"] == batches * rows * (cols % 4)
    dw = counts["dw_int16xint8"]
    assert dw["simd"]["smlalbb"] == dw["scalar"]["smlal"] and "smlal" not in dw["simd"]
