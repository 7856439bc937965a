"""armsim.analysis.insight: each dispatch reason against a layer built to hit it (every branch of the
conv and depthwise wrappers, FC, pooling), checked against the kernel the counted run takes;
each counterfactual's cycles equal to a direct profile of the changed layer."""
import copy
import json

import numpy as np
import pytest
from click.testing import CliRunner
from test_report_html import (
    Elements,
    chromium,  # noqa: F401 (the fixture)
    render_dom,
)

from armsim.analysis import insight
from armsim.data import modelgen
from armsim.pipeline import prepare, profiler
from armsim.cli.main import main
from armsim.pipeline.model import parse
from armsim.pipeline.build import Build


def _model(build, shape):
    g = modelgen.Graph(seed=0)
    x = g.input(shape, scale=0.05, zero_point=-2)
    g.output(build(g, x))
    return parse(g.build(), "layer.tflite")


def _explain(model, path="simd"):
    """(Dispatch, counted kernel chain) of the model's one op."""
    step = prepare.prepare(model)[0]
    prof = profiler.run(model, Build(path), steps=[step])
    return insight.dispatch(model, step, prof.ops[0].kernel, Build(path)), prof.ops[0].kernel


def _taken(d):
    return [b.condition for b in d.reasons]


CONV = {   # name -> (layer, input shape, kernel the wrapper hands over to, taken branches)
    "1x1_fast": (lambda g, x: g.conv2d(x, 8, (1, 1), padding="VALID"), (1, 6, 6, 4),
                 "arm_convolve_1x1_s8_fast", []),
    "1x1_stride_x": (lambda g, x: g.conv2d(x, 8, (1, 1), stride=(1, 2), padding="VALID"),
                     (1, 6, 6, 4), "arm_convolve_1x1_s8", ["stride_x != 1"]),
    "1x1_stride_y": (lambda g, x: g.conv2d(x, 8, (1, 1), stride=(2, 1), padding="VALID"),
                     (1, 6, 6, 4), "arm_convolve_1x1_s8", ["stride_y != 1"]),
    "pad_x": (lambda g, x: g.conv2d(x, 8, (3, 3), padding="SAME"), (1, 6, 6, 4),
              "arm_convolve_s8", ["pad_x != 0", "input_y != 1"]),
    "pad_y": (lambda g, x: g.conv2d(x, 8, (3, 1), padding="SAME"), (1, 6, 6, 4),
              "arm_convolve_s8", ["pad_y != 0", "input_y != 1"]),
    "kernel_x": (lambda g, x: g.conv2d(x, 8, (1, 3), padding="VALID"), (1, 6, 6, 4),
                 "arm_convolve_s8", ["kernel_x != 1", "input_y != 1"]),
    "kernel_y": (lambda g, x: g.conv2d(x, 8, (3, 1), padding="VALID"), (1, 6, 6, 4),
                 "arm_convolve_s8", ["kernel_y != 1", "input_y != 1"]),
    # gcc's wrapper goes straight to arm_convolve_s8 when the 1x1 test fails at dilation.w
    # (its 1xN test needs dilation.w == 1 too)
    "dilation_x": (lambda g, x: g.conv2d(x, 8, (1, 1), dilation=(1, 2), padding="VALID"),
                   (1, 6, 6, 4), "arm_convolve_s8", ["dilation_x != 1"]),
    "dilation_y": (lambda g, x: g.conv2d(x, 8, (1, 1), dilation=(2, 1), padding="VALID"),
                   (1, 6, 6, 4), "arm_convolve_s8", ["dilation_y != 1", "input_y != 1"]),
    "1xn": (lambda g, x: g.conv2d(x, 8, (1, 3), padding="VALID"), (1, 1, 12, 4),
            "arm_convolve_1_x_n_s8", ["kernel_x != 1"]),
    "1xn_dilation": (lambda g, x: g.conv2d(x, 8, (1, 3), dilation=(1, 2), padding="VALID"),
                     (1, 1, 12, 4), "arm_convolve_s8", ["kernel_x != 1", "dilation_x != 1"]),
    "1xn_kernel_y": (lambda g, x: g.conv2d(x, 8, (2, 3), padding="SAME"), (1, 1, 12, 4),
                     "arm_convolve_s8", ["pad_x != 0", "kernel_y != 1"]),
    "1xn_stride_channels": (lambda g, x: g.conv2d(x, 8, (1, 3), padding="VALID"),
                            (1, 1, 12, 3), "arm_convolve_s8", ["kernel_x != 1", "t & 3 != 0"]),
}

DEPTHWISE = {
    "3x3": (lambda g, x: g.depthwise_conv2d(x, (3, 3), padding="SAME"), (1, 6, 6, 4),
            "arm_depthwise_conv_3x3_s8", []),
    "filter_w": (lambda g, x: g.depthwise_conv2d(x, (3, 5), padding="SAME"), (1, 6, 6, 4),
                 "arm_depthwise_conv_s8_opt", ["filter_w != 3"]),
    "filter_h": (lambda g, x: g.depthwise_conv2d(x, (5, 3), padding="SAME"), (1, 6, 6, 4),
                 "arm_depthwise_conv_s8_opt", ["filter_h != 3"]),
    "ch_mult": (lambda g, x: g.depthwise_conv2d(x, (3, 3), depth_multiplier=2), (1, 6, 6, 4),
                "arm_depthwise_conv_s8", ["ch_mult != 1"]),
    "batch": (lambda g, x: g.depthwise_conv2d(x, (3, 3)), (2, 6, 6, 4),
              "arm_depthwise_conv_s8", ["input_n != 1"]),
    "dilation_x": (lambda g, x: g.depthwise_conv2d(x, (3, 3), dilation=(1, 2)), (1, 8, 8, 4),
                   "arm_depthwise_conv_s8", ["dilation_x != 1"]),
    "dilation_y": (lambda g, x: g.depthwise_conv2d(x, (3, 3), dilation=(2, 1)), (1, 8, 8, 4),
                   "arm_depthwise_conv_s8", ["dilation_y != 1"]),
}


@pytest.mark.parametrize("name", list(CONV) + [f"dw_{n}" for n in DEPTHWISE])
def test_wrapper_branch(name):
    layer, shape, leaf, taken = CONV[name] if name in CONV else DEPTHWISE[name[3:]]
    d, chain = _explain(_model(layer, shape))
    assert d.leaf == leaf and leaf in chain.split(" > ")
    assert _taken(d) == taken
    assert d.reason.startswith(insight._leaf(chain) + ": ")
    for condition in taken:
        assert condition in d.reason
    if not taken:
        assert "every check held" in d.reason


@pytest.mark.parametrize("axis", ["h", "w"])
def test_depthwise_3x3_padding_branch(axis):
    """Padding above 1 on a 3x3 filter: TFLite's SAME/VALID never give it (the total 3x3
    padding is at most 2), so the case's padding is set directly, as a CMSIS-NN caller can."""
    model = _model(DEPTHWISE["3x3"][0], (1, 6, 6, 4))
    step = copy.deepcopy(prepare.prepare(model)[0])
    step.case["dw_conv_params"]["padding"][axis] = 2
    d = insight.dispatch(model, step, "", Build("simd"))
    var = "pad_y" if axis == "h" else "pad_x"
    assert d.leaf == "arm_depthwise_conv_s8_opt" and _taken(d) == [f"{var} > 1"]


@pytest.mark.parametrize("per_channel", [False, True])
def test_fully_connected_wrapper(per_channel):
    d, chain = _explain(_model(lambda g, x: g.fully_connected(x, 6, per_channel=per_channel),
                               (1, 16)))
    leaf = "arm_fully_connected_per_channel_s8" if per_channel else "arm_fully_connected_s8"
    assert d.leaf == leaf and leaf in chain.split(" > ")
    assert _taken(d) == ([] if per_channel else ["not per_channel"])


def test_fully_connected_as_1x1_conv_is_tflm_glue():
    d, chain = _explain(_model(lambda g, x: g.fully_connected(x, 4, keep_num_dims=True),
                               (1, 2, 2, 16)))
    assert "arm_convolve_1x1_s8_fast" in chain
    assert "Eval glue calls arm_convolve_1x1_s8_fast" in d.reason and d.branches == []


@pytest.mark.parametrize("pool,kernel", [("max_pool2d", "arm_max_pool_s8"),
                                         ("average_pool2d", "arm_avgpool_s8")])
def test_pooling_has_one_kernel(pool, kernel):
    d, chain = _explain(_model(lambda g, x: getattr(g, pool)(x), (1, 4, 4, 8)))
    assert kernel in chain and d.reason == f"{kernel}: the one CMSIS-NN kernel for " \
        f"{d.op} (no dispatch)"


def test_scalar_build_explains_the_same_wrapper():
    d, _ = _explain(_model(CONV["1x1_stride_x"][0], (1, 6, 6, 4)), "scalar")
    assert d.leaf == "arm_convolve_1x1_s8" and _taken(d) == ["stride_x != 1"]


def _weights(shape, seed):
    return np.random.default_rng(seed).integers(-127, 128, shape).astype(np.int8)


def _layer(kind, **change):
    """A one-op model with fixed weights and quantization, `change` applied."""
    g = modelgen.Graph(seed=0)
    if kind == "conv":
        x = g.input((1, 8, 8, 8), scale=0.05, zero_point=-2)
        opts = {"kernel": (1, 1), "stride": (2, 2), "padding": "VALID", "dilation": (1, 1)}
        opts.update(change)
        y = g.conv2d(x, 8, weights=_weights((8, 1, 1, 8), 1), bias=np.arange(8) * 100,
                     weight_scale=np.linspace(0.004, 0.008, 8), out_scale=0.1, **opts)
    else:
        x = g.input((1, 9, 9, 4), scale=0.05, zero_point=-2)
        opts = {"kernel": (3, 3), "stride": (1, 1), "padding": "SAME", "dilation": (2, 2)}
        opts.update(change)
        y = g.depthwise_conv2d(x, weights=_weights((1, 3, 3, 4), 2), bias=np.arange(4) * 50,
                               weight_scale=np.linspace(0.004, 0.008, 4), out_scale=0.1,
                               **opts)
    g.output(y)
    return g.build()


@pytest.mark.parametrize("kind,change,option,leaf", [
    ("conv", {"stride": (1, 1)}, "stride 1", "arm_convolve_1x1_s8_fast"),
    ("depthwise", {"dilation": (1, 1)}, "dilation 1", "arm_depthwise_conv_3x3_s8")])
def test_counterfactual_equals_a_direct_profile(kind, change, option, leaf):
    model = parse(_layer(kind), f"{kind}.tflite")
    d, chain = _explain(model)
    cfs = insight.counterfactuals(model, d, Build("simd"))
    assert [c.change for c in cfs] == [option]
    cf = cfs[0]
    direct = profiler.run(parse(_layer(kind, **change), "changed.tflite"), Build("simd")).ops[0]
    assert cf.cycles == direct.cycles and cf.macs == direct.macs
    assert leaf in cf.kernel and direct.kernel == cf.kernel
    baseline = profiler.run(model, Build("simd")).ops[0]
    assert cf.baseline_cycles == baseline.cycles and cf.baseline_macs == baseline.macs
    assert cf.kernel != chain


def test_no_counterfactual_when_the_change_keeps_the_path():
    """A 3x3 conv with SAME padding fails the 1x1 test at pad_x; VALID would fail it at
    kernel_x: still arm_convolve_s8, so no counterfactual is reported."""
    model = _model(CONV["pad_x"][0], (1, 6, 6, 4))
    d, _ = _explain(model)
    assert insight.counterfactuals(model, d, Build("simd")) == []


def test_cli_why(tmp_path):
    out = tmp_path / "why.json"
    path = tmp_path / "conv.tflite"
    path.write_bytes(_layer("conv"))
    r = CliRunner().invoke(main, ["why", str(path), "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "arm_nn_is_convolve_1x1_fast: stride_x != 1 (stride_x = 2)" in r.output
    assert "with stride 1: arm_convolve_1x1_s8_fast" in r.output
    data = json.loads(out.read_text())
    assert data["ops"][0]["counterfactuals"][0]["change"] == "stride 1"
    bad = CliRunner().invoke(main, ["why", str(path), "--op", "5"])
    assert bad.exit_code != 0 and "no op 5" in bad.output and "Traceback" not in bad.output


@pytest.mark.parametrize("change,build,options", [
    ("core=cortex-m7", Build(core="cortex-m7"), {}),
    ("dsp=off", Build("scalar"), {}),
    ("flash-wait-states=2", Build(), {"flash_wait_states": 2}),
    ("toolchain=armclang", Build(toolchain="armclang"), {})])
def test_whatif_equals_a_direct_profile_with_the_change(tmp_path, change, build, options):
    """A 1x1 stride-1 conv: the fast path, whose DSP build differs under armclang."""
    layer = _layer("conv", stride=(1, 1))
    path = tmp_path / "conv.tflite"
    path.write_bytes(layer)
    out = tmp_path / "whatif.json"
    r = CliRunner().invoke(main, ["whatif", str(path), "--vs", change, "--json", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    model = parse(layer, "conv.tflite")
    base, changed = profiler.run(model, Build()), profiler.run(model, build, **options)
    assert [o["cycles"] for o in data["base"]["ops"]] == [o.cycles for o in base.ops]
    assert [o["cycles"] for o in data["changed"]["ops"]] == [o.cycles for o in changed.ops]
    assert data["changed"]["total"]["cycles"] != data["base"]["total"]["cycles"]


def test_whatif_bad_change_is_one_line():
    r = CliRunner().invoke(main, ["whatif", "--vs", "cache=on"])
    assert r.exit_code != 0 and "KEY=VALUE with KEY one of core" in r.output
    assert "Traceback" not in r.output


def test_html_report_shows_why_each_kernel(chromium, tmp_path):  # noqa: F811 (fixture)
    """`profile --html`: the per-op table has each op's dispatch reason, rendered by a real
    browser (the fixture and parser of tests/analysis/test_report_html.py)."""
    html = tmp_path / "report.html"
    r = CliRunner().invoke(main, ["profile", "--html", str(html)])
    assert r.exit_code == 0, r.output
    doc = Elements(render_dom(chromium, html, tmp_path))
    cells = [c["text"] for c in doc.select("td", "why", inside="op-table")]
    model = parse(modelgen.EXAMPLES["example"](seed=0), "example.tflite")
    assert len(cells) == len(model.operators)
    assert cells[0].startswith("arm_convolve_s8") and "pad_x != 0 (pad_x = 1)" in cells[0]
    assert cells[5].startswith("arm_fully_connected_s8") and "not per_channel" in cells[5]
