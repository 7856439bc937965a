"""armsim lint: each rule of TFLite's int8 quantization spec against a model built to break
it, and each finding's claimed effect checked against what runs (the op's Prepare, TFLM's
interpreter, or the CMSIS-NN kernel's instructions); the shared MLPerf Tiny models clean."""
import glob
import json
import os
from collections import Counter

import numpy as np
import pytest
import tflite
from click.testing import CliRunner

from armsim.analysis import lint
from armsim.data import modelgen
from armsim.pipeline import prepare, tflm_host
from armsim.cli.main import main
from armsim.errors import ModelError
from armsim.pipeline.model import parse
from armsim.pipeline.build import Build

SHARED_MODELS = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared",
                                              "models", "*", "model.tflite")))


def _conv_graph(activation="NONE", out_zero_point=0, per_channel=True):
    g = modelgen.Graph(seed=1)
    x = g.input((1, 6, 6, 3), scale=0.05, zero_point=-3)
    y = g.conv2d(x, 4, (3, 3), padding="VALID", activation=activation,
                 out_zero_point=out_zero_point, per_channel=per_channel, name="conv")
    g.output(y)
    return g, x, y


def _fc_graph(per_channel=False):
    g = modelgen.Graph(seed=2)
    x = g.input((1, 16), scale=0.05, zero_point=2)
    y = g.fully_connected(x, 6, per_channel=per_channel, name="fc")
    g.output(y)
    return g, x, y


def _named(g, name):
    return next(i for i, t in enumerate(g.tensors) if t.name == name)


def _lint(g):
    model = parse(g.build(), "test.tflite")
    return model, lint.lint(model)


def _only(findings, rule):
    hits = [f for f in findings if f.rule == rule]
    assert len(hits) == 1, [f.line() for f in findings]
    return hits[0]


def _tflm(model_bytes, x):
    return tflm_host.run(model_bytes, [x], "test")[0]


def _input(g, x):
    return np.random.default_rng(0).integers(-128, 128, g.shape(x), dtype=np.int64) \
        .astype(np.int8)


@pytest.mark.parametrize("path", SHARED_MODELS, ids=lambda p: p.split(os.sep)[-2])
def test_shared_models_lint_clean(path):
    """kws / vww / ic / ad follow the spec: zero-point-0 weights per-axis on dim 0 (conv) /
    3 (depthwise), per-tensor FC, bias scales equal to the float32 products, softmax
    (1/256, -128), pool/reshape keeping their input's quantization, int8 I/O."""
    from armsim.pipeline.model import load
    assert len(SHARED_MODELS) == 4
    assert lint.lint(load(path)) == []


@pytest.mark.parametrize("name", list(modelgen.EXAMPLES))
def test_examples_lint_clean(name):
    assert lint.lint(parse(modelgen.EXAMPLES[name](seed=0), name)) == []


def test_conv_weight_zero_point_is_refused_as_prepare_refuses():
    g, _, _ = _conv_graph()
    g.tensors[_named(g, "conv/weights")].zero_point = [0, 3, 0, 0]
    model, findings = _lint(g)
    f = _only(findings, "weight-zero-point")
    assert f.kind == lint.REFUSED and "'conv/weights'" in f.tensor and "3" in f.problem
    with pytest.raises(ModelError, match="non-zero zero point"):
        prepare.prepare(model)


def test_fc_weight_zero_point_takes_the_rhs_offset_path():
    """The finding says SXTAB16 replaces SXTB16 in the MAC loop: the traced kernel shows it
    (16 x 6 weights, no column tail)."""
    from armsim.cpu.kernel import Tracer
    from armsim.pipeline import harness

    def mnemonics(g):
        model = parse(g.build(), "fc.tflite")
        case = dict(prepare.prepare(model)[0].case, input=np.arange(-8, 8, dtype=np.int8))
        tracer = Tracer()
        harness.run_case(case, Build("simd"), tracer=tracer)
        return Counter(r.mnemonic.upper() for r in tracer.records)

    g, _, _ = _fc_graph()
    clean = mnemonics(g)
    g.tensors[_named(g, "fc/weights")].zero_point = 4
    _, findings = _lint(g)
    f = _only(findings, "weight-zero-point")
    assert f.kind == lint.SPEED and "'fc/weights'" in f.tensor
    offset = mnemonics(g)
    weights = 6 * 16                 # two SXTAB16 for two SXTB16 per 4 weights
    assert offset["SXTAB16"] - clean["SXTAB16"] == weights // 2
    assert clean["SXTB16"] - offset["SXTB16"] == weights // 2


def test_per_axis_on_the_wrong_dimension_is_refused_as_tflm_refuses():
    """quantized_dimension 3 on a conv filter of 3 input channels, 4 scales: TFLM's
    PopulateConvolutionQuantizationParams refuses it, armsim's Prepare too."""
    g, _, _ = _conv_graph()
    g.tensors[_named(g, "conv/weights")].axis = 3
    model, findings = _lint(g)
    f = _only(findings, "per-axis-dimension")
    assert f.kind == lint.REFUSED and "dimension 3" in f.problem
    with pytest.raises(ModelError, match="per axis along dimension 3"):
        prepare.prepare(model)
    with pytest.raises(ModelError, match="TFLM cannot run"):
        tflm_host.interpreter(g.build(), "conv")


def test_per_axis_on_a_dimension_of_the_same_size_rescales_output_channels():
    """With as many input as output channels TFLM accepts dimension 3 and gives scale[c] to
    output channel c (the finding's claim): the outputs equal those of dimension 0."""
    g = modelgen.Graph(seed=1)
    x = g.input((1, 5, 5, 4), scale=0.05, zero_point=-3)
    g.output(g.conv2d(x, 4, (3, 3), padding="VALID", name="conv"))
    inp = _input(g, x)
    right = _tflm(g.build(), inp)
    g.tensors[_named(g, "conv/weights")].axis = 3
    model, findings = _lint(g)
    f = _only(findings, "per-axis-dimension")
    assert f.kind == lint.OUTPUTS and "dimension 3" in f.problem
    np.testing.assert_array_equal(_tflm(g.build(), inp), right)
    prepare.prepare(model)


def test_per_axis_activation_keeps_only_the_first_scale():
    g, x, y = _conv_graph()
    inp = _input(g, x)
    s, zp = g.quant(y)
    first = _tflm(g.build(), inp)
    g.tensors[y].scale, g.tensors[y].zero_point = [s, 4 * s, s, s], [zp, 9, zp, zp]
    _, findings = _lint(g)
    f = _only(findings, "per-axis-activation")
    assert f.kind == lint.OUTPUTS and "'conv'" in f.tensor
    np.testing.assert_array_equal(_tflm(g.build(), inp), first)


def test_bias_scale_mismatch_is_ignored_by_the_kernels():
    g, x, _ = _conv_graph()
    inp = _input(g, x)
    right = _tflm(g.build(), inp)
    b = g.tensors[_named(g, "conv/bias")]
    b.scale = [2 * s for s in b.scale]
    _, findings = _lint(g)
    f = _only(findings, "bias-scale")
    assert f.kind == lint.OUTPUTS and "'conv/bias'" in f.tensor
    steps = float(f.effect.split("up to ")[1].split(" output")[0])
    assert steps > 0.5
    np.testing.assert_array_equal(_tflm(g.build(), inp), right)


def test_bias_scale_within_float_rounding_is_clean():
    g, _, _ = _conv_graph()
    b = g.tensors[_named(g, "conv/bias")]
    b.scale = [float(np.nextafter(np.float32(s), np.float32(1))) for s in b.scale]
    assert _lint(g)[1] == []


def test_fc_bias_scale_mismatch_is_refused_as_prepare_refuses():
    g, _, _ = _fc_graph()
    b = g.tensors[_named(g, "fc/bias")]
    b.scale = 100 * b.scale
    model, findings = _lint(g)
    f = _only(findings, "bias-scale")
    assert f.kind == lint.REFUSED and "input_scale * filter_scale" in f.effect
    with pytest.raises(ModelError, match="bias"):
        prepare.prepare(model)


def test_bias_zero_point():
    g, _, _ = _conv_graph()
    g.tensors[_named(g, "conv/bias")].zero_point = [0, 0, 50000, 0]
    f = _only(_lint(g)[1], "bias-zero-point")
    assert "50000" in f.problem and f.kind == lint.OUTPUTS


def _softmax_graph(op=tflite.BuiltinOperator.SOFTMAX, scale=1 / 256, zero_point=-128):
    g = modelgen.Graph(seed=3)
    x = g.input((1, 10), scale=0.1, zero_point=0)
    y = g.tensor((1, 10), "int8", scale, zero_point, name="probabilities")
    if op == tflite.BuiltinOperator.SOFTMAX:
        opts = (tflite.SoftmaxOptionsStart, [(tflite.SoftmaxOptionsAddBeta, 1.0)],
                tflite.SoftmaxOptionsEnd)
        g._op(op, [x], [y], tflite.BuiltinOptions.SoftmaxOptions, opts)
    else:
        g._op(op, [x], [y])
    g.output(y)
    return g, x


def test_softmax_output_quantization_is_refused_by_prepare_and_tflm():
    g, _ = _softmax_graph(zero_point=-127)
    model, findings = _lint(g)
    f = _only(findings, "fixed-output-quantization")
    assert f.kind == lint.REFUSED and "'probabilities'" in f.tensor
    with pytest.raises(ModelError):
        prepare.prepare(model)
    with pytest.raises(ModelError, match="TFLM cannot run"):
        tflm_host.interpreter(g.build(), "softmax")


def test_logistic_zero_point_is_refused_by_tflm():
    g, _ = _softmax_graph(tflite.BuiltinOperator.LOGISTIC, zero_point=0)
    f = _only(_lint(g)[1], "fixed-output-quantization")
    assert "refuses" in f.effect
    with pytest.raises(ModelError, match="TFLM cannot run"):
        tflm_host.interpreter(g.build(), "logistic")


def test_logistic_scale_is_ignored_by_the_kernel():
    g, x = _softmax_graph(tflite.BuiltinOperator.LOGISTIC)
    inp = _input(g, x)
    right = _tflm(g.build(), inp)
    g.tensors[_named(g, "probabilities")].scale = 1 / 128
    f = _only(_lint(g)[1], "fixed-output-quantization")
    assert f.kind == lint.OUTPUTS and "2x" in f.effect
    np.testing.assert_array_equal(_tflm(g.build(), inp), right)


def test_reshape_with_new_quantization_copies_the_bytes():
    g = modelgen.Graph(seed=4)
    x = g.input((1, 2, 2, 4), scale=0.05, zero_point=1)
    y = g.reshape(x, (1, 16))
    g.tensors[y].scale, g.tensors[y].zero_point = 0.1, 5
    g.output(y)
    f = _only(_lint(g)[1], "same-quantization")
    assert f.kind == lint.OUTPUTS and "input_0" in f.tensor
    inp = _input(g, x)
    np.testing.assert_array_equal(_tflm(g.build(), inp).ravel(), inp.ravel())


def test_pool_with_new_quantization_is_refused_as_prepare_refuses():
    g = modelgen.Graph(seed=5)
    x = g.input((1, 4, 4, 2), scale=0.05, zero_point=1)
    y = g.max_pool2d(x)
    g.tensors[y].zero_point = 7
    g.output(y)
    model, findings = _lint(g)
    assert _only(findings, "same-quantization").kind == lint.REFUSED
    with pytest.raises(ModelError, match="quantization differ"):
        prepare.prepare(model)


def test_relu_clamping_to_one_value_makes_a_constant_layer():
    g, x, _ = _conv_graph(activation="RELU", out_zero_point=127)
    f = _only(_lint(g)[1], "activation-range")
    assert f.kind == lint.OUTPUTS and "[127, 127]" in f.problem
    out = _tflm(g.build(), _input(g, x))
    assert (out == 127).all()


def test_granularity():
    g, _, _ = _conv_graph(per_channel=False)
    f = _only(_lint(g)[1], "granularity")
    assert f.kind == lint.NOTE and "'conv/weights'" in f.tensor
    g, _, _ = _fc_graph(per_channel=True)
    model, findings = _lint(g)
    f = _only(findings, "granularity")
    assert f.kind == lint.SPEED and "per_channel" in f.effect
    assert prepare.prepare(model)[0].case["quant_params"]["per_channel"]


def test_float_io():
    g = modelgen.Graph(seed=6)
    x = g.input((1, 8), dtype="float32", name="features")
    q = g.quantize(x, 0.05, 0)
    y = g.fully_connected(q, 4, name="fc")
    g.output(g.dequantize(y, name="scores"))
    findings = [f for f in _lint(g)[1] if f.rule == "float-io"]
    assert [f.op.split()[-1] for f in findings] == ["QUANTIZE", "DEQUANTIZE"]
    assert "'features'" in findings[0].tensor and "32 bytes" in findings[0].effect
    assert "'scores'" in findings[1].tensor and all(f.kind == lint.SPEED for f in findings)


def test_cli_exit_status_and_json(tmp_path):
    runner = CliRunner()
    clean = runner.invoke(main, ["lint", "kws"])
    assert clean.exit_code == 0 and "0 findings" in clean.output
    g, _, _ = _conv_graph(per_channel=False)
    path = tmp_path / "m.tflite"
    path.write_bytes(g.build())
    out = tmp_path / "lint.json"
    found = runner.invoke(main, ["lint", str(path), "--json", str(out)])
    assert found.exit_code == 1 and "[granularity] -> note" in found.output
    data = json.loads(out.read_text())
    assert data["findings"][0]["rule"] == "granularity"
    bad = runner.invoke(main, ["lint", str(tmp_path / "missing.tflite")])
    assert bad.exit_code == 2 and "no such file" in bad.output
    assert "Traceback" not in bad.output
