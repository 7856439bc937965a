"""armsim.pipeline.prepare: TFLM Prepare's parameter derivations, checked against their definitions."""
import numpy as np
import pytest

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.operators import common
from armsim.pipeline.model import Tensor
from armsim.pipeline.build import Build
from model_helpers import shared_model


def _out(scale, zp):
    return Tensor(0, "out", (1,), "INT8", 0, scale=np.array([scale]), zero_point=np.array([zp]))


@pytest.mark.parametrize("scale,zp", [(0.0235, -128), (0.1, 3), (6 / 255, -128), (0.05, 120)])
def test_activation_ranges(scale, zp):
    assert common.activation_range(0, _out(scale, zp)) == (-128, 127)
    lo, hi = common.activation_range(1, _out(scale, zp))
    assert (lo, hi) == (max(-128, zp), 127)
    lo, hi = common.activation_range(3, _out(scale, zp))
    six = zp + int(np.floor(np.float32(6.0) / np.float32(scale) + np.float32(0.5)))
    assert (lo, hi) == (max(-128, zp), min(127, six))
    lo, hi = common.activation_range(2, _out(scale, zp))
    q = float(np.float32(1.0) / np.float32(scale))
    away = int(np.floor(q + 0.5))               # TfLiteRound: half away from zero (6/255
    assert (lo, hi) == (max(-128, zp - away), min(127, zp + away))   # gives exactly 42.5)


def test_padding_matches_tflite_definition():
    for size in range(1, 12):
        for filt in range(1, 6):
            for stride in range(1, 4):
                for dil in range(1, 3):
                    eff = (filt - 1) * dil + 1
                    out, pad = common.padding(0, stride, dil, size, filt)       # SAME
                    assert out == -(-size // stride)
                    taps = [o * stride - pad + k * dil for o in range(out) for k in range(filt)]
                    # SAME pads the same or one less before than after
                    total = max(0, (out - 1) * stride + eff - size)
                    assert pad == total // 2 and min(taps) >= -pad
                    if size >= eff:
                        out, pad = common.padding(1, stride, dil, size, filt)   # VALID
                        assert pad == 0 and (out - 1) * stride + eff <= size < out * stride + eff


def test_softmax_params_reproduce_the_kernel_contract():
    m = model.load(str(shared_model("kws")))
    step = prepare.prepare(m)[-1]
    c = step.case
    inp = m.tensors[m.operators[-1].inputs[0]]
    beta_scale = float(np.float32(inp.scale[0])) * (1 << 26)        # beta 1, 5 integer bits
    assert c["mult"] * 2.0 ** (c["shift"] - 31) == pytest.approx(beta_scale, rel=1e-9)
    assert c["mult"] >= 1 << 30 and c["shift"] >= 0
    # diff_min: the most negative input difference whose scaled value stays in range
    assert c["diff_min"] == -int(np.floor(31 * 2.0 ** 26 / 2.0 ** c["shift"]))


def test_add_uses_left_shift_20_and_twice_the_max_input_scale():
    m = model.load(str(shared_model("ic")))
    for step in prepare.prepare(m):
        if step.op != "ADD":
            continue
        op = m.operators[step.index]
        a, b = (m.tensors[i] for i in op.inputs)
        out = m.tensors[op.outputs[0]]
        c = step.case
        twice = 2 * max(float(np.float32(a.scale[0])), float(np.float32(b.scale[0])))
        assert c["left_shift"] == 20
        for k, t in ((1, a), (2, b)):
            real = c[f"input_{k}_mult"] * 2.0 ** (c[f"input_{k}_shift"] - 31)
            assert real == pytest.approx(float(np.float32(t.scale[0])) / twice, rel=1e-8)
            assert c[f"input_{k}_offset"] == -int(t.zero_point[0])
        real = c["out_mult"] * 2.0 ** (c["out_shift"] - 31)
        assert real == pytest.approx(twice / (2 ** 20 * float(np.float32(out.scale[0]))), rel=1e-8)


def test_per_channel_multipliers_and_flash_wait_states():
    g = modelgen.Graph(seed=2)
    x = g.input((1, 5, 5, 3), scale=0.03, zero_point=-2)
    g.output(g.conv2d(x, 4, (3, 3), weight_scale=[0.01, 0.02, 0.005, 0.04]))
    m = model.parse(g.build(), "pc.tflite")
    (step,) = prepare.prepare(m)
    out = m.tensors[m.operators[0].outputs[0]]
    for c, (q, s) in enumerate(zip(step.case["output_mult"], step.case["output_shift"])):
        eff = float(np.float32(0.03)) * float(np.float32([0.01, 0.02, 0.005, 0.04][c])) / float(out.scale[0])
        assert q * 2.0 ** (s - 31) == pytest.approx(eff, rel=1e-8)
    a = profiler.run(m, Build("simd"))
    b = profiler.run(m, Build("simd"), flash_wait_states=3)
    assert a.instructions == b.instructions and b.cycles > a.cycles
    assert np.array_equal(a.outputs[0], b.outputs[0])


def test_each_operator_module_is_named_after_its_builtin():
    """`operators.get` imports the module named after the builtin in lower case."""
    import importlib
    import pkgutil
    from armsim import operators
    for info in pkgutil.iter_modules(operators.__path__):
        if info.name.startswith("_") or info.name == "common":
            continue
        op = importlib.import_module(f"armsim.operators.{info.name}").OPERATOR
        assert op.name.lower() == info.name and operators.get(op.name) is op
    assert set(operators.registry()) == {
        info.name.upper() for info in pkgutil.iter_modules(operators.__path__)
        if not info.name.startswith("_") and info.name != "common"}
    assert operators.get("NOT_AN_OP") is None and operators.get("COMMON") is None


@pytest.mark.parametrize("name", ["example", "kws", "ic"])
def test_each_step_runs_a_family_of_its_operator(name):
    """A step that runs a CMSIS-NN family names one its Operator lists (`families`)."""
    from armsim import api, operators
    for step in prepare.prepare(api.load_model(name)):
        if not step.reference_only and not step.host:
            assert step.family in operators.get(step.op).families, (step.op, step.family)
