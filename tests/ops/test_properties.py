"""Property tests: on random shapes and parameters, CMSIS-NN's SIMD path, its plain-C path,
TFLM's reference kernels (all three executed on the machine) and the numpy oracle agree
bit for bit -- odd channel counts, padding, strides, dilation, groups, channel multipliers,
activation clamps, extreme multipliers and shifts, NULL bias, batches.

Seeded and derandomized (reproducible); shapes are small so the file runs in well under
90 s once numba's cache is warm.
"""
import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armsim.pipeline.harness import run_case
from armsim.kernels.families import oracle
from armsim.kernels.tflm.quantization_util import quantize_multiplier_greater_than_one
from armsim.pipeline.build import Build

PATHS = ("simd", "scalar", "reference")
SETTINGS = settings(max_examples=10, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _agree(case):
    want = oracle(case)
    for path in PATHS:
        got = run_case(case, Build(path)).output
        assert np.array_equal(got, want), (path, case["family"], np.nonzero(got != want)[0][:8])


def _rng(draw):
    return np.random.default_rng(draw(st.integers(0, 2**32 - 1)))


def _multipliers(draw, rng, n):
    """Per-channel Q31 multipliers and shifts, with the extremes mixed in."""
    kind = draw(st.sampled_from(["random", "random", "max", "min", "tiny_shift", "left_shift"]))
    mult = rng.integers(1 << 30, (1 << 31) - 1, n, endpoint=True)
    shift = rng.integers(-12, 1, n)
    if kind == "max":
        mult[:] = (1 << 31) - 1
    elif kind == "min":
        mult[:] = 1 << 30
    elif kind == "tiny_shift":
        shift = rng.integers(-31, -20, n, endpoint=True)
    elif kind == "left_shift":
        shift = rng.integers(0, 3, n)
    return mult.tolist(), shift.tolist()


def _activation(draw):
    lo = draw(st.integers(-128, 40))
    hi = draw(st.integers(lo, 127))
    return {"min": lo, "max": hi}


def _spatial(draw, dilation=True):
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    dil_h, dil_w = ((draw(st.integers(1, 2)), draw(st.integers(1, 2)))
                    if dilation and draw(st.booleans()) else (1, 1))
    s_h, s_w = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    p_h, p_w = draw(st.integers(0, fh - 1)), draw(st.integers(0, fw - 1))
    in_h = draw(st.integers(max(1, dil_h * (fh - 1) + 1 - 2 * p_h), 6))
    in_w = draw(st.integers(max(1, dil_w * (fw - 1) + 1 - 2 * p_w), 6))
    out_h = (in_h + 2 * p_h - dil_h * (fh - 1) - 1) // s_h + 1
    out_w = (in_w + 2 * p_w - dil_w * (fw - 1) - 1) // s_w + 1
    return dict(fh=fh, fw=fw, dil={"h": dil_h, "w": dil_w}, stride={"h": s_h, "w": s_w},
                pad={"h": p_h, "w": p_w}, in_h=in_h, in_w=in_w, out_h=out_h, out_w=out_w)


def _image_dims(n, g, in_c, out_c):
    """input_dims and output_dims of an NHWC case on the `_spatial` geometry `g`."""
    return {"input_dims": {"n": n, "h": g["in_h"], "w": g["in_w"], "c": in_c},
            "output_dims": {"n": n, "h": g["out_h"], "w": g["out_w"], "c": out_c}}


def _bias(rng, out_c, bias_null):
    return {"bias": [0] * out_c if bias_null else rng.integers(-50000, 50000, out_c).tolist(),
            "bias_is_null": bias_null}


def _conv_arrays(rng, n, g, in_c, weight_count, out_c, bias_null):
    """input, weights and bias of a convolution case (drawn in that order)."""
    return {"input": rng.integers(-128, 128, n * g["in_h"] * g["in_w"] * in_c).tolist(),
            "weights": rng.integers(-128, 128, weight_count).tolist(),
            **_bias(rng, out_c, bias_null)}


def _offsets(draw):
    return {"input_offset": draw(st.integers(-127, 128)),
            "output_offset": draw(st.integers(-128, 127))}


@st.composite
def conv_cases(draw):
    rng = _rng(draw)
    n = draw(st.integers(1, 2))
    groups = draw(st.sampled_from([1, 1, 1, 2, 3]))
    fc = draw(st.integers(1, 5))
    per_group = draw(st.integers(1, 3))
    in_c, out_c = fc * groups, per_group * groups
    g = _spatial(draw)
    mult, shift = _multipliers(draw, rng, out_c)
    # CMSIS-NN's arm_convolve_s8 advances a NULL bias pointer per group (bias_data_ptr +=
    # output_ch_per_group) and then dereferences it: a grouped conv needs a real bias.
    bias_null = groups == 1 and draw(st.booleans())
    return {
        "case": "property", "family": "conv", "groups": groups, **_image_dims(n, g, in_c, out_c),
        "filter_dims": {"n": out_c, "h": g["fh"], "w": g["fw"], "c": fc},
        "conv_params": {**_offsets(draw), "stride": g["stride"], "padding": g["pad"],
                        "dilation": g["dil"], "activation": _activation(draw)},
        **_conv_arrays(rng, n, g, in_c, out_c * g["fh"] * g["fw"] * fc, out_c, bias_null),
        "output_mult": mult, "output_shift": shift,
    }


@st.composite
def depthwise_cases(draw):
    rng = _rng(draw)
    n = draw(st.integers(1, 2))
    in_c = draw(st.integers(1, 7))
    ch_mult = draw(st.sampled_from([1, 1, 2, 3]))
    g = _spatial(draw)
    if draw(st.booleans()):                       # the 3x3 kernel's shape
        g = _spatial(draw, dilation=False)
    out_c = in_c * ch_mult
    mult, shift = _multipliers(draw, rng, out_c)
    bias_null = draw(st.booleans())
    return {
        "case": "property", "family": "depthwise_conv", **_image_dims(n, g, in_c, out_c),
        "filter_dims": {"n": 1, "h": g["fh"], "w": g["fw"], "c": out_c},
        "dw_conv_params": {**_offsets(draw), "ch_mult": ch_mult, "stride": g["stride"],
                           "padding": g["pad"], "dilation": g["dil"],
                           "activation": _activation(draw)},
        **_conv_arrays(rng, n, g, in_c, g["fh"] * g["fw"] * out_c, out_c, bias_null),
        "output_mult": mult, "output_shift": shift,
    }


@st.composite
def fc_cases(draw):
    rng = _rng(draw)
    batches = draw(st.integers(1, 3))
    depth = draw(st.integers(1, 21))
    out_c = draw(st.integers(1, 9))
    per_channel = draw(st.booleans())
    mult, shift = _multipliers(draw, rng, out_c)
    bias_null = draw(st.booleans())
    case = {
        "case": "property", "family": "fully_connected",
        "input_dims": {"n": batches, "h": 1, "w": 1, "c": depth},
        "filter_dims": {"n": depth, "h": 1, "w": 1, "c": out_c},
        "output_dims": {"n": batches, "h": 1, "w": 1, "c": out_c},
        "fc_params": {"input_offset": draw(st.integers(-127, 128)),
                      "filter_offset": 0 if per_channel else draw(st.sampled_from([0, 0, -15, 7])),
                      "output_offset": draw(st.integers(-128, 127)),
                      "activation": _activation(draw)},
        "input": rng.integers(-128, 128, batches * depth).tolist(),
        "weights": rng.integers(-127, 128, depth * out_c).tolist(),
        **_bias(rng, out_c, bias_null),
    }
    if per_channel:
        case["quant_params"] = {"per_channel": True}
        case["output_mult"], case["output_shift"] = mult, shift
    else:
        case["quant_params"] = {"per_channel": False, "multiplier": mult[0], "shift": shift[0]}
    return case


@st.composite
def pool_cases(draw, family):
    rng = _rng(draw)
    c = draw(st.integers(1, 9))
    g = _spatial(draw, dilation=False)
    return {
        "case": "property", "family": family, **_image_dims(1, g, c, c),
        "filter_dims": {"n": 1, "h": g["fh"], "w": g["fw"], "c": 1},
        "pool_params": {"stride": g["stride"], "padding": g["pad"],
                        "activation": _activation(draw)},
        "input": rng.integers(-128, 128, g["in_h"] * g["in_w"] * c).tolist(),
    }


@st.composite
def softmax_cases(draw):
    rng = _rng(draw)
    rows, size = draw(st.integers(1, 3)), draw(st.integers(1, 12))
    # TFLM's PreprocessSoftmaxScaling(beta = 1, input_scale, 5) and CalculateInputRadius
    input_scale = draw(st.sampled_from([1 / 256, 0.0123, 0.05, 0.1, 0.25, 1 / 16]))
    real = min(input_scale * (1 << 26), (1 << 31) - 1.0)
    mult, shift = quantize_multiplier_greater_than_one(real)
    radius = math.floor(31.0 * (1 << 26) / (1 << shift))
    diff_min = draw(st.sampled_from([-radius, -radius, -(2**31) + 1, -40]))
    spread = draw(st.sampled_from([4, 40, 256]))
    base = rng.integers(-128, 128)
    x = np.clip(base + rng.integers(-spread, spread + 1, rows * size), -128, 127)
    return {"case": "property", "family": "softmax", "num_rows": rows, "row_size": size,
            "mult": mult, "shift": shift, "diff_min": diff_min, "input": x.tolist()}


@st.composite
def add_cases(draw):
    rng = _rng(draw)
    n = draw(st.integers(1, 40))
    act = _activation(draw)
    return {
        "case": "property", "family": "elementwise_add",
        "input_1_offset": draw(st.integers(-127, 128)),
        "input_1_mult": draw(st.integers(1 << 30, (1 << 31) - 1)),
        "input_1_shift": draw(st.integers(-3, 0)),
        "input_2_offset": draw(st.integers(-127, 128)),
        "input_2_mult": draw(st.integers(1 << 30, (1 << 31) - 1)),
        "input_2_shift": draw(st.integers(-3, 0)),
        "left_shift": 20, "out_offset": draw(st.integers(-128, 127)),
        "out_mult": draw(st.integers(1 << 30, (1 << 31) - 1)),
        "out_shift": draw(st.integers(-22, -15)),
        "out_activation_min": act["min"], "out_activation_max": act["max"], "block_size": n,
        "input": rng.integers(-128, 128, n).tolist(), "input2": rng.integers(-128, 128, n).tolist(),
    }


@st.composite
def mul_cases(draw):
    rng = _rng(draw)
    n = draw(st.integers(1, 40))
    act = _activation(draw)
    return {
        "case": "property", "family": "elementwise_mul",
        "input_1_offset": draw(st.integers(-127, 128)),
        "input_2_offset": draw(st.integers(-127, 128)),
        "out_offset": draw(st.integers(-128, 127)),
        "out_mult": draw(st.integers(1 << 30, (1 << 31) - 1)),
        "out_shift": draw(st.integers(-14, 0)),
        "out_activation_min": act["min"], "out_activation_max": act["max"], "block_size": n,
        "input": rng.integers(-128, 128, n).tolist(), "input2": rng.integers(-128, 128, n).tolist(),
    }


@SETTINGS
@given(conv_cases())
def test_conv(case):
    _agree(case)


@SETTINGS
@given(depthwise_cases())
def test_depthwise_conv(case):
    _agree(case)


@SETTINGS
@given(fc_cases())
def test_fully_connected(case):
    _agree(case)


@SETTINGS
@given(pool_cases("avgpool"))
def test_avgpool(case):
    _agree(case)


@SETTINGS
@given(pool_cases("maxpool"))
def test_maxpool(case):
    _agree(case)


@SETTINGS
@given(softmax_cases())
def test_softmax(case):
    _agree(case)


@SETTINGS
@given(add_cases())
def test_elementwise_add(case):
    _agree(case)


@SETTINGS
@given(mul_cases())
def test_elementwise_mul(case):
    _agree(case)


def test_disagreement_is_detected():
    """The comparison can fail: a reference output differs once a parameter is off."""
    case = {"case": "property", "family": "elementwise_mul", "input_1_offset": 128,
            "input_2_offset": 128, "out_offset": -128, "out_mult": 1077952640, "out_shift": -7,
            "out_activation_min": -128, "out_activation_max": 127, "block_size": 4,
            "input": [1, 50, -70, 127], "input2": [3, -20, 90, -128]}
    want = oracle(case)
    wrong = dict(case, out_shift=-6)
    assert not np.array_equal(run_case(wrong, Build("reference")).output, want)
