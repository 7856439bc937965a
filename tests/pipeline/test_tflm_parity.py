"""Loader and Prepare parity with TFLite Micro: each disagreement a differential campaign found
(issue 11), as a small model.  armsim either runs it bit-exactly like TFLM's interpreter on
all three paths, or refuses it in one line naming the tensor / op and the rule -- never a
third answer, never paths that disagree."""
import os

import numpy as np
import pytest
import tflite

from armsim.data import modelgen
from armsim.kernels.tflm.quantization_util import quantize_multiplier
import tflm_diff as td
from model_helpers import shared_model

PATHS = ("simd", "scalar", "reference")


def _x(shape, seed=0, dtype=np.int8):
    return [np.random.default_rng(seed).integers(-128, 128, shape, dtype=dtype)]


def assert_runs_like_tflm(data, inputs, tmp_path, paths=PATHS):
    """TFLM runs the model and armsim's outputs equal TFLM's on every path."""
    theirs = td.tflm_run(data, inputs)
    assert theirs.kind == "ok", theirs.message
    for path in paths:
        ours = td.armsim_run(data, inputs, tmp_path, path)
        assert ours.kind == "ok", f"{path}: {ours.message}"
        for a, b in zip(ours.outputs, theirs.outputs):
            assert a.dtype == b.dtype and a.shape == b.shape, (path, a.shape, b.shape)
            assert np.array_equal(a, b), f"{path}: {int(np.sum(a != b))} of {a.size} differ"
    return theirs.outputs


def assert_refused(data, inputs, tmp_path, *needles, tflm_refuses=None):
    """armsim refuses in one line containing `needles`; `tflm_refuses` True/False pins down
    what TFLM does with the same model (False: a documented int8-spec refusal)."""
    ours = td.armsim_run(data, inputs, tmp_path, "reference")
    assert ours.kind == "refused", ours
    for n in needles:
        assert n in ours.message, ours.message
    if tflm_refuses is not None:
        theirs = td.tflm_run(data, inputs)
        assert (theirs.kind == "refused") == tflm_refuses, theirs
        if not tflm_refuses:
            assert td.documented_refusal(ours.message), ours.message
    return ours.message


def _field_offset(table, slot):
    return table._tab.Pos + table._tab.Offset(slot)


# --- loader: operator codes, buffers, quantization -----------------------------------------

def test_builtin_code_is_the_max_of_the_raw_fields(tmp_path):
    """GetBuiltinCode: builtin_code 17 (MAX_POOL_2D) with a stray deprecated code 1
    (AVERAGE_POOL_2D) is a max pool; the tflite bindings' BuiltinCode() returned 1."""
    g = modelgen.Graph(seed=0)
    g.output(g.max_pool2d(g.input((1, 8, 8, 3), scale=0.1, zero_point=-4), (2, 2)))
    data = bytearray(g.build())
    code = tflite.Model.GetRootAsModel(data, 0).OperatorCodes(0)
    assert code.BuiltinCode() == 17
    data[_field_offset(code, 4)] = tflite.BuiltinOperator.AVERAGE_POOL_2D
    x = _x((1, 8, 8, 3))
    out = assert_runs_like_tflm(bytes(data), x, tmp_path)
    assert np.array_equal(out[0], x[0].reshape(1, 4, 2, 4, 2, 3).max(axis=(2, 4)))


def test_buffer_with_inline_data_and_an_offset_reads_the_inline_data(tmp_path):
    m = td.unpack(_conv_fc_model())
    weights = m.subgraphs[0].tensors[1]                  # the conv filter
    m.buffers[weights.buffer].offset, m.buffers[weights.buffer].size = 8, 72
    assert_runs_like_tflm(td.pack(m), _x((1, 6, 6, 2)), tmp_path)


def test_buffer_larger_than_the_shape_needs_runs(tmp_path):
    m = td.unpack(_conv_fc_model())
    b = m.buffers[m.subgraphs[0].tensors[1].buffer]
    b.data = np.concatenate([b.data, np.arange(40, dtype=np.uint8)])
    assert_runs_like_tflm(td.pack(m), _x((1, 6, 6, 2)), tmp_path)


def test_buffer_smaller_than_the_shape_needs_is_refused(tmp_path):
    m = td.unpack(_conv_fc_model())
    b = m.buffers[m.subgraphs[0].tensors[1].buffer]
    b.data = b.data[:-3]
    assert_refused(td.pack(m), _x((1, 6, 6, 2)), tmp_path, "tensor 1", "holds", "needs")


def test_a_scale_without_zero_point_is_not_quantized(tmp_path):
    """TFLM (micro_allocator.cc) reads quantization only when both scale and zero point are
    there: FULLY_CONNECTED weights with a scale alone have scale 0 -> multiplier 0."""
    g = modelgen.Graph(seed=3)
    g.output(g.fully_connected(g.input((1, 16), scale=0.05, zero_point=2), 6))
    m = td.unpack(g.build())
    m.subgraphs[0].tensors[1].quantization.zeroPoint = None
    assert_runs_like_tflm(td.pack(m), _x((1, 16)), tmp_path)


@pytest.mark.parametrize("zero_point", [32767, 2**31, -129])
def test_zero_points_outside_int8_are_refused_naming_the_tensor(tmp_path, zero_point):
    """TFLM runs them, CMSIS-NN's SIMD packing of offsets does not: refused, one rule."""
    m = td.unpack(_conv_fc_model())
    m.subgraphs[0].tensors[0].quantization.zeroPoint = np.array([zero_point], np.int64)
    shown = zero_point if zero_point < 2**31 else -(2**31)     # TFLM's int32 truncation
    assert_refused(td.pack(m), _x((1, 6, 6, 2)), tmp_path, "tensor 0 'x'",
                   f"zero point {shown} outside the int8 range", tflm_refuses=False)


def test_person_detect_bias_quantized_dimension_is_ignored(tmp_path):
    """person_detect.tflite's first conv bias: 8 per-channel scales, quantized_dimension 3 on
    a rank-1 [8] tensor.  TFLM never checks a bias's quantization; armsim refused it."""
    g = modelgen.Graph(seed=5)
    x = g.input((1, 9, 9, 3), scale=0.0078, zero_point=-1)
    g.output(g.depthwise_conv2d(g.conv2d(x, 8, (3, 3), stride=(2, 2), per_channel=True,
                                         activation="RELU6"), (3, 3), per_channel=True))
    m = td.unpack(g.build())
    for t in m.subgraphs[0].tensors:
        if t.shape.tolist() == [8] and t.type == tflite.TensorType.INT32:
            t.quantization.quantizedDimension = 3
    assert_runs_like_tflm(td.pack(m), _x((1, 9, 9, 3)), tmp_path)


def test_corrupted_tensor_name_stays_one_line(tmp_path):
    m = td.unpack(_conv_fc_model())
    t = m.subgraphs[0].tensors[1]
    t.name = b"conv\x00weights\nline two\nline three"
    b = m.buffers[t.buffer]
    b.data = b.data[:5]
    message = assert_refused(td.pack(m), _x((1, 6, 6, 2)), tmp_path)
    assert "\x00" not in message and "conv\\x00weights\\nline two\\nline three" in message


def test_rank0_input_keeps_its_shape(tmp_path):
    """np.ascontiguousarray made a rank-0 input [1], which then failed the shape check."""
    g = modelgen.Graph(seed=1)
    x = g.input((), scale=0.1, zero_point=3)
    g.output(g.quantize(x, 0.05, -2))
    x0 = [np.array(-7, np.int8)]
    out = assert_runs_like_tflm(g.build(), x0, tmp_path)
    assert out[0].shape == ()


def _conv_fc_model(seed=0):
    g = modelgen.Graph(seed=seed)
    x = g.input((1, 6, 6, 2), scale=0.02, zero_point=-3, name="x")
    y = g.conv2d(x, 4, (3, 3), padding="SAME", activation="RELU", name="conv")
    g.output(g.fully_connected(g.reshape(y, (1, -1), name="flat"), 5, name="fc"))
    return g.build()


# --- extreme scales, host QUANTIZE / DEQUANTIZE --------------------------------------------

@pytest.mark.parametrize("out_scale", [1e-12, 1e-9])
def test_requantize_left_shifts_beyond_31_are_refused(tmp_path, out_scale):
    """A QUANTIZE int8 -> int8 with output scale 1e-12: multiplier 1e11, shift 37.  TFLM's
    x86 build computed x * (1 << (37 & 31)); a Cortex-M computes x * 0.  1e-9 (shift 27) runs."""
    g = modelgen.Graph(seed=1)
    g.output(g.quantize(g.input((1, 16, 16, 1), scale=0.1, zero_point=3), out_scale, -2))
    x = [np.arange(-128, 128, dtype=np.int8).reshape(1, 16, 16, 1)]
    if out_scale == 1e-9:
        assert_runs_like_tflm(g.build(), x, tmp_path)
    else:
        assert_refused(g.build(), x, tmp_path, "op 0 QUANTIZE", "left shift of 37",
                       tflm_refuses=False)


def test_huge_weight_scale_is_refused_naming_the_op(tmp_path):
    g = modelgen.Graph(seed=1)
    g.output(g.conv2d(g.input((1, 6, 6, 2), scale=0.02, zero_point=3), 4, (3, 3)))
    g.tensors[1].scale = 1e38
    assert_refused(g.build(), _x((1, 6, 6, 2)), tmp_path, "op 0 CONV_2D", "left shift",
                   tflm_refuses=False)


def test_negative_per_channel_scales_run_like_tflm(tmp_path):
    g = modelgen.Graph(seed=1)
    x = g.input((1, 6, 6, 2), scale=0.02, zero_point=3)
    g.output(g.depthwise_conv2d(g.conv2d(x, 4, (3, 3), per_channel=True), (3, 3),
                                per_channel=True))
    for t in (1, 4):
        g.tensors[t].scale = -np.asarray(g.tensors[t].scale)
    assert_runs_like_tflm(g.build(), _x((1, 6, 6, 2)), tmp_path)


def test_negative_per_channel_scales_beyond_a_31_bit_shift_are_refused(tmp_path):
    """Negative per-channel weight scales of -1e10: each channel's multiplier needs a left
    shift beyond 31 (undefined in MultiplyByQuantizedMultiplier).  TFLM's interpreter runs it
    (x86 masks the shift count); armsim ran it too and every output differed (144 of 144)."""
    g = modelgen.Graph(seed=1)
    x = g.input((1, 6, 6, 2), scale=0.02, zero_point=3)
    g.output(g.depthwise_conv2d(g.conv2d(x, 4, (3, 3), per_channel=True), (3, 3),
                                per_channel=True))
    for t in (1, 4):                                      # the two weights tensors
        g.tensors[t].scale = np.full(len(g.tensors[t].scale), -1e10)
    assert_refused(g.build(), _x((1, 6, 6, 2)), tmp_path, "op 0 CONV_2D", "channel 0",
                   "needs a left shift", tflm_refuses=False)


def test_host_quantize_and_dequantize_match_tflm_without_warnings(tmp_path):
    """float -> int8 with values far outside int32 after scaling (TFLM's interpreter gives
    INT32_MIN there, then clamps) and int8 -> float products beyond float32: bit-exact, and
    no RuntimeWarning from numpy on the way."""
    import warnings
    values = np.array([0, 1e10, -1e10, np.inf, -np.inf, np.nan, 3.4e38, 1.5, -2.5, 200],
                      np.float32)
    for scale, zp in ((0.1, 3), (1e-30, -5), (1e30, 0)):
        g = modelgen.Graph()
        g.output(g.quantize(g.input((10,), dtype="float32"), scale, zp))
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            assert_runs_like_tflm(g.build(), [values], tmp_path, paths=("reference",))
    g = modelgen.Graph()
    g.output(g.dequantize(g.input((1, 16), scale=3e38, zero_point=0)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        out = assert_runs_like_tflm(g.build(), _x((1, 16)), tmp_path, paths=("reference",))
    assert np.isinf(out[0]).any()


# --- Prepare: options, activations, operand counts, per-op rules ---------------------------

def _set_option(data, op_index, field, value):
    m = td.unpack(data)
    setattr(m.subgraphs[0].operators[op_index].builtinOptions, field, value)
    return td.pack(m)


@pytest.mark.parametrize("code", [4, 5, 7, 100, -3])
def test_fused_activation_codes_tflm_treats_as_none(tmp_path, code):
    """ConvertActivation: 4 TANH, 5 SIGN_BIT, anything else NONE; the int8 activation range
    clamps only for the ReLUs, so all of them run with the full range."""
    g = modelgen.Graph(seed=2)
    x = g.input((1, 5, 5, 3), scale=0.05, zero_point=1)
    g.output(g.add(g.conv2d(x, 3, (3, 3), activation="RELU"), x, out_scale=0.08))
    data = _set_option(_set_option(g.build(), 0, "fusedActivationFunction", code),
                       1, "fusedActivationFunction", code)
    assert_runs_like_tflm(data, _x((1, 5, 5, 3)), tmp_path)


@pytest.mark.parametrize("code,runs", [(7, True), (4, False), (1, False)])
def test_concatenation_takes_only_activation_none(tmp_path, code, runs):
    g = modelgen.Graph(seed=2)
    x = g.input((1, 4, 3), scale=0.05, zero_point=1)
    g.output(g.concatenation([x, x], axis=2))
    data = _set_option(g.build(), 0, "fusedActivationFunction", code)
    if runs:
        assert_runs_like_tflm(data, _x((1, 4, 3)), tmp_path)
    else:
        assert_refused(data, _x((1, 4, 3)), tmp_path, "op 0 CONCATENATION",
                       "takes none", tflm_refuses=True)


def test_builtin_options_of_another_type_are_read_as_defaults(tmp_path):
    """TFLM's builtin_options_as_AddOptions() is null for MulOptions: defaults (activation
    NONE).  armsim refused the model."""
    g = modelgen.Graph(seed=4)
    x = g.input((1, 4, 4, 2), scale=0.05, zero_point=1)
    g.output(g.add(x, x, activation="RELU6", out_scale=0.03))
    m = td.unpack(g.build())
    op = m.subgraphs[0].operators[0]
    op.builtinOptionsType = tflite.BuiltinOptions.MulOptions
    out = assert_runs_like_tflm(td.pack(m), _x((1, 4, 4, 2)), tmp_path)
    assert out[0].max() > 0                    # no RELU6 clamp (6 / 0.03 - 1 = 199 > 127)


def test_an_extra_operator_input_is_refused_as_tflm_does(tmp_path):
    m = td.unpack(_conv_fc_model())
    conv = m.subgraphs[0].operators[0]
    conv.inputs = np.append(conv.inputs, conv.inputs[0]).astype(np.int32)
    assert_refused(td.pack(m), _x((1, 6, 6, 2)), tmp_path, "op 0 CONV_2D", "4 inputs",
                   tflm_refuses=True)


def test_negative_fully_connected_scale_product_is_refused_as_tflm_does(tmp_path):
    g = modelgen.Graph(seed=3)
    g.output(g.fully_connected(g.input((1, 16), scale=0.05, zero_point=2), 6))
    g.tensors[1].scale = -np.asarray(g.tensors[1].scale)
    assert_refused(g.build(), _x((1, 16)), tmp_path, "op 0 FULLY_CONNECTED", "negative",
                   tflm_refuses=True)


def test_dequantize_to_another_size_is_one_line_naming_the_op(tmp_path):
    g = modelgen.Graph()
    g.output(g.dequantize(g.input((1, 16), scale=0.1, zero_point=0)))
    m = td.unpack(g.build())
    m.subgraphs[0].tensors[1].shape = np.array([1, 12], np.int32)
    assert_refused(td.pack(m), _x((1, 16)), tmp_path, "op 0 DEQUANTIZE", "[1, 12]", "(16)")


@pytest.mark.parametrize("op", ["AVERAGE_POOL_2D", "MAX_POOL_2D"])
def test_pool_scales_within_tflm_tolerance_run(tmp_path, op):
    """pooling_common.cc accepts |input scale - output scale| <= 1e-6: such models ran in
    TFLM and armsim refused them (it required equal scales)."""
    g = modelgen.Graph(seed=6)
    x = g.input((1, 8, 8, 3), scale=0.1, zero_point=-4)
    pool = g.average_pool2d if op == "AVERAGE_POOL_2D" else g.max_pool2d
    g.output(pool(x, (2, 2), activation="RELU6"))
    g.tensors[1].scale = 0.1 + 5e-7
    assert_runs_like_tflm(g.build(), _x((1, 8, 8, 3)), tmp_path)
    g.tensors[1].scale = 0.1 + 5e-6
    assert_refused(g.build(), _x((1, 8, 8, 3)), tmp_path, f"op 0 {op}",
                   "quantization differ", tflm_refuses=True)


def test_pad_with_different_input_and_output_quantization_runs(tmp_path):
    """pad_common.cc never compares the quantization: the bytes are copied, padded with the
    output zero point."""
    g = modelgen.Graph(seed=6)
    y = g.pad(g.input((1, 4, 4, 2), scale=0.1, zero_point=-4), ((0, 0), (1, 1), (2, 0), (0, 0)))
    g.output(y)
    g.tensors[y].scale, g.tensors[y].zero_point = 0.37, 9     # the output (not the paddings)
    x = _x((1, 4, 4, 2))
    out = assert_runs_like_tflm(g.build(), x, tmp_path)[0]
    assert np.array_equal(out[:, 1:5, 2:, :], x[0]) and np.all(out[:, 0, :, :] == 9)


def test_depth_multiplier_inconsistent_with_the_shapes_is_refused(tmp_path):
    """TFLM's kernels loop over the option's depth_multiplier (a DCHECK only compares it with
    the channels); armsim derived it from the shapes and ran something else."""
    g = modelgen.Graph(seed=7)
    g.output(g.depthwise_conv2d(g.input((1, 6, 6, 4), scale=0.02, zero_point=1), (3, 3),
                                depth_multiplier=2))
    data = _set_option(g.build(), 0, "depthMultiplier", 1)
    assert_refused(data, _x((1, 6, 6, 4)), tmp_path, "op 0 DEPTHWISE_CONV_2D",
                   "DepthMultiplier = 1", tflm_refuses=False)


def test_dilation_beyond_int32_is_refused(tmp_path):
    g = modelgen.Graph(seed=8)
    g.output(g.conv2d(g.input((1, 6, 6, 2), scale=0.02, zero_point=1), 3, (3, 3),
                      padding="SAME"))
    data = _set_option(g.build(), 0, "dilationHFactor", 2**30)
    assert_refused(data, _x((1, 6, 6, 2)), tmp_path, "op 0 CONV_2D",
                   "DilationHFactor = 1073741824", "beyond int32", tflm_refuses=False)


def test_quantized_bias_type_that_is_no_tensor_type_is_refused_as_tflm_does(tmp_path):
    g = modelgen.Graph(seed=8)
    g.output(g.conv2d(g.input((1, 6, 6, 2), scale=0.02, zero_point=1), 3, (3, 3)))
    data = _set_option(g.build(), 0, "quantizedBiasType", 100)
    assert_refused(data, _x((1, 6, 6, 2)), tmp_path, "op 0 CONV_2D", "QuantizedBiasType = 100",
                   tflm_refuses=True)


@pytest.mark.parametrize("out_scale", [0.5, 1e-4])
def test_fully_connected_bias_scale_is_checked_like_tflm(tmp_path, out_scale):
    """GetQuantizedConvolutionMultipler checks |input x weights scale - bias scale| / output
    scale <= 0.02 whenever there is a bias: an unquantized bias has scale 0 (armsim skipped
    the check), a NaN scale always fails it."""
    g = modelgen.Graph(seed=3)
    g.output(g.fully_connected(g.input((1, 16), scale=0.05, zero_point=2), 6,
                               out_scale=out_scale))
    m = td.unpack(g.build())
    m.subgraphs[0].tensors[2].quantization.zeroPoint = None
    verdict = td.compare(td.pack(m), _x((1, 16)), tmp_path)
    assert verdict.status == ("agree-ok" if out_scale == 0.5 else "agree-refused"), verdict
    m.subgraphs[0].tensors[2].quantization.scale = np.array([np.nan], np.float32)
    m.subgraphs[0].tensors[2].quantization.zeroPoint = np.zeros(1, np.int64)
    assert_refused(td.pack(m), _x((1, 16)), tmp_path, "op 0 FULLY_CONNECTED", "bias",
                   tflm_refuses=True)


def test_add_output_that_is_not_the_broadcast_is_refused(tmp_path):
    """An ADD of [1, 16] and [4, 16] into a [1, 4] output: TFLM's Prepare does not compare the
    shapes and its broadcast kernel reads outside the tensors (differently on each run)."""
    g = modelgen.Graph(seed=3)
    x = g.input((1, 16), scale=0.05, zero_point=2)
    w = g.tensor((4, 16), "int8", scale=0.05, zero_point=2, data=np.ones((4, 16)))
    g.output(g.add(x, w, out_scale=0.1))
    m = td.unpack(g.build())
    m.subgraphs[0].tensors[2].shape = np.array([1, 4], np.int32)
    assert_refused(td.pack(m), _x((1, 16)), tmp_path, "op 0 ADD", "not the broadcast")


@pytest.mark.parametrize("weights_format", [1, 2])
def test_fully_connected_weights_format_as_tflm(tmp_path, weights_format):
    """TFLM parses SHUFFLED4x16INT8 (1) and its int8 kernels ignore it; other codes fail
    ParseFullyConnected.  armsim refused 1."""
    g = modelgen.Graph(seed=3)
    g.output(g.fully_connected(g.input((1, 16), scale=0.05, zero_point=2), 6))
    data = _set_option(g.build(), 0, "weightsFormat", weights_format)
    if weights_format == 1:
        assert_runs_like_tflm(data, _x((1, 16)), tmp_path)
    else:
        assert_refused(data, _x((1, 16)), tmp_path, "op 0 FULLY_CONNECTED",
                       "unknown weights format 2", tflm_refuses=True)


# --- requantization multipliers: GetQuantizedConvolutionMultipler ---------------------------

def _requantize(acc, multiplier, shift):
    """MultiplyByQuantizedMultiplier over an int64 array (SaturatingRoundingDoublingHighMul,
    then RoundingDivideByPOT), to find accumulators where two multipliers round apart."""
    acc = np.asarray(acc, np.int64)
    high = (acc << max(shift, 0)) * multiplier
    high = high + np.where(high >= 0, 1 << 30, 1 - (1 << 30))
    high = np.where(high >= 0, high >> 31, -((-high) >> 31))
    mask = (1 << max(-shift, 0)) - 1
    return (high >> max(-shift, 0)) + ((high & mask) > (mask >> 1) + (high < 0))


def _accumulators_where_float_and_double_products_disagree(in_scale, weight_scale, out_scale):
    """The accumulators of an int8 output whose requantization differs between the
    multiplier of float(in_scale * weight_scale) and of the double product."""
    si, sw, so = (float(np.float32(s)) for s in (in_scale, weight_scale, out_scale))
    via_float = quantize_multiplier(float(np.float32(si) * np.float32(sw)) / so)
    via_double = quantize_multiplier(si * sw / so)
    n = int(127 / (si * sw / so))
    acc = np.arange(-n, n + 1)
    return acc[_requantize(acc, *via_float) != _requantize(acc, *via_double)]


def test_ad_requantizes_with_the_scale_product_in_double(tmp_path):
    """The campaign's one silent mismatch on the unmodified ad model: output[624] was -22 on
    all three paths, TFLM's -21.  The last layer's accumulator -88337 sits 0.001 LSB from a
    rounding boundary, and armsim's multiplier came from float(input scale x weights scale)
    (1462485078) where TFLM's interpreter multiplies the scales in double (1462485049)."""
    data = shared_model("ad").read_bytes()
    out = assert_runs_like_tflm(data, td.inputs_for(data, None, 2100), tmp_path)
    assert out[0].ravel()[624] == -21


def test_fully_connected_accumulators_at_rounding_boundaries_requantize_like_tflm(tmp_path):
    """Per-tensor FULLY_CONNECTED whose biases are exactly the accumulators that the float
    and the double scale product requantize 1 apart (inputs at the zero point, so each output
    is its bias requantized)."""
    si, sw, so = 0.02479089, 0.01955668, 36.449847
    hits = _accumulators_where_float_and_double_products_disagree(si, sw, so)
    assert len(hits) >= 4, hits
    g = modelgen.Graph(seed=1)
    x = g.input((1, 1), scale=si, zero_point=5)
    g.output(g.fully_connected(x, len(hits), weights=np.ones((len(hits), 1)), bias=hits,
                               weight_scale=sw, out_scale=so))
    assert_runs_like_tflm(g.build(), [np.full((1, 1), 5, np.int8)], tmp_path)


def test_batch_matmul_accumulators_at_rounding_boundaries_requantize_like_tflm(tmp_path):
    """BATCH_MATMUL takes its multiplier from GetQuantizedConvolutionMultipler too: each lhs
    row sums to one of the accumulators where the float and the double scale product
    requantize 1 apart (rhs column: 127 everywhere but a last 1)."""
    sl, sr, so = 0.02479089, 0.01955668, 36.449847
    hits = _accumulators_where_float_and_double_products_disagree(sl, sr, so)
    depth = 1024
    rows = np.zeros((len(hits), depth), np.int64)
    for row, target in zip(rows, hits):
        whole, rest = divmod(abs(int(target)), 127)
        row[:whole // 127], row[whole // 127] = 127, whole % 127
        row[-1] = rest
        row *= int(np.sign(target))
    rhs = np.full((depth, 1), 127)
    rhs[-1] = 1
    assert np.array_equal(rows @ rhs[:, 0], hits)
    g = modelgen.Graph(seed=1)
    lhs = g.input((1, len(hits), depth), scale=sl, zero_point=0)
    w = g.tensor((depth, 1), "int8", scale=sr, zero_point=0, data=rhs)
    g.output(g.batch_matmul(lhs, w, out_scale=so))
    assert_runs_like_tflm(g.build(), [rows.astype(np.int8)[None]], tmp_path)


# --- ops TFLM computes on the host ------------------------------------------------------------

def test_an_op_tflm_aborts_on_is_one_line_not_a_crash(tmp_path):
    """An ADD whose second input is an unquantized INT32 constant (a campaign mutant of ic):
    armsim hands it to TFLM on the host, whose Prepare aborts the process
    (QuantizeMultiplierSmallerThanOneExp's TFLITE_CHECK_GT of a 0 multiplier).  armsim ran
    TFLM in its own process and died with SIGABRT; now the op is refused in one line."""
    g = modelgen.Graph(seed=2)
    x = g.input((1, 4, 4, 2), scale=0.05, zero_point=1)
    w = g.tensor((1, 4, 4, 2), "int8", scale=0.05, zero_point=0, data=np.ones((1, 4, 4, 2)))
    g.output(g.add(x, w, out_scale=0.1))
    m = td.unpack(g.build())
    const = m.subgraphs[0].tensors[1]
    const.type, const.quantization = tflite.TensorType.INT32, None
    m.buffers[const.buffer].data = np.zeros(4 * 32, np.uint8)
    data = td.pack(m)
    assert td.tflm_run(data, _x((1, 4, 4, 2))).kind == "crashed"
    message = assert_refused(data, _x((1, 4, 4, 2)), tmp_path, "op 0 ADD", "TFLM crashed",
                             "SIGABRT")
    assert td.compare(data, _x((1, 4, 4, 2)), tmp_path).status == "tflm-crashed", message


def test_host_tflm_runs_isolated_from_armsim():
    from armsim.pipeline import tflm_host
    from armsim.errors import ModelError
    with pytest.raises(ModelError, match="^m.tflite: op 3 X: TFLM crashed running this op "
                                         r"\(SIGABRT"):
        tflm_host._isolated(os.abort, "m.tflite: op 3 X", "running")
    with pytest.raises(ModelError, match="^refused$"):
        tflm_host._isolated(lambda: (_ for _ in ()).throw(ModelError("refused")), "w", "x")
    assert tflm_host._isolated(lambda: [np.arange(3)], "w", "x")[0].tolist() == [0, 1, 2]


@pytest.mark.parametrize("op", ["ADD", "SUB"])
def test_broadcast_binary_ops_are_prepared_before_tflm_computes_them(tmp_path, op):
    """A broadcast ADD / SUB (TFLM on the host) whose output scale makes the output multiplier
    >= 1: TFLM's Prepare derives it for any shape and aborts; armsim's Prepare now derives it
    before handing the op over, so the refusal is armsim's own line naming the rule."""
    g = modelgen.Graph(seed=2)
    x = g.input((1, 4, 4, 2), scale=0.05, zero_point=1)
    y = g.input((1, 1, 1, 2), scale=0.05, zero_point=0)
    g.output(g.add(x, y, out_scale=1e-9))
    m = td.unpack(g.build())
    if op == "SUB":
        m.operatorCodes[0].builtinCode = m.operatorCodes[0].deprecatedBuiltinCode = \
            tflite.BuiltinOperator.SUB
        m.subgraphs[0].operators[0].builtinOptionsType = tflite.BuiltinOptions.SubOptions
        m.subgraphs[0].operators[0].builtinOptions = td._schema().SubOptionsT()
    inputs = _x((1, 4, 4, 2)) + _x((1, 1, 1, 2), seed=1)
    assert td.tflm_run(td.pack(m), inputs).kind == "crashed"
    assert_refused(td.pack(m), inputs, tmp_path, f"op 0 {op}", "must be < 1")


# --- found by the campaign of seed 11 ------------------------------------------------------

def test_depthwise_weights_with_an_empty_dimension_are_refused(tmp_path):
    """kws mutant #2685: DEPTHWISE_CONV_2D weights of shape [0, 3, 3, C].  TFLM ignores
    dimension 0 and reads 3 x 3 x C weights from the buffer; armsim held no values for the
    empty tensor and ran the kernel on whatever followed (2 of kws's 12 outputs differed)."""
    g = modelgen.Graph(seed=4)
    g.output(g.depthwise_conv2d(g.input((1, 6, 6, 4), scale=0.05, zero_point=1), (3, 3)))
    m = td.unpack(g.build())
    m.subgraphs[0].tensors[1].shape = np.array([0, 3, 3, 4], np.int32)
    assert_refused(td.pack(m), _x((1, 6, 6, 4)), tmp_path, "op 0 DEPTHWISE_CONV_2D",
                   "tensor 1", "an empty dimension", tflm_refuses=False)


def test_corrupt_buffer_vectors_are_documented_refusals(tmp_path):
    """kws mutant #133 (a weights vector whose length runs past the end of the file: TFLM
    reads only the bytes the shape needs and runs) and ic mutant #1750 (a buffer index
    beyond the buffers: TFLM reads outside the vector) are corrupt files armsim refuses."""
    data = bytearray(_conv_fc_model())
    fb = tflite.Model.GetRootAsModel(data, 0)
    weights = fb.Subgraphs(0).Tensors(1)
    buf = fb.Buffers(weights.Buffer())
    start = buf._tab.Vector(buf._tab.Offset(4))
    data[start - 4:start] = (10 ** 8).to_bytes(4, "little")
    assert_refused(bytes(data), _x((1, 6, 6, 2)), tmp_path, "tensor 1", "runs past the end",
                   tflm_refuses=False)
    m = td.unpack(_conv_fc_model())
    m.subgraphs[0].tensors[1].buffer = len(m.buffers) + 100
    message = assert_refused(td.pack(m), _x((1, 6, 6, 2)), tmp_path, "tensor 1",
                             "out of range")
    assert td.documented_refusal(message), message


def test_a_shape_beyond_any_microcontroller_memory_is_a_documented_refusal(tmp_path):
    """kws mutant #4689 of seed 11 (a byte flip made the first conv's bias shape
    [1442840640]): TFLM reads its 64 values and runs; armsim's loader refuses the shape."""
    m = td.unpack(_conv_fc_model())
    assert m.subgraphs[0].tensors[2].name == b"conv/bias"
    m.subgraphs[0].tensors[2].shape = np.array([1442840640], np.int32)
    assert_refused(td.pack(m), _x((1, 6, 6, 2)), tmp_path, "tensor 2", "1442840640 elements",
                   tflm_refuses=False)


def test_conv_weights_with_an_empty_dimension_are_refused_on_every_path(tmp_path):
    """Campaign of seed 12 on the simd path (#983 vww, #1266 / #3510 ic): CONV_2D weights of
    shape [oc, 3, 0, ic].  The simd path refused with CMSIS-NN's ARM_CMSIS_NN_ARG_ERROR while
    the reference path ran it like TFLM's reference kernel (bias only): paths that disagree.
    TFLM's CMSIS-NN kernel only DCHECKs that status, so the device leaves the output
    unwritten; armsim refuses on every path."""
    m = td.unpack(_conv_fc_model())
    assert m.subgraphs[0].tensors[1].name == b"conv/weights"
    m.subgraphs[0].tensors[1].shape = np.array([4, 3, 0, 2], np.int32)
    data, x = td.pack(m), _x((1, 6, 6, 2))
    assert td.tflm_run(data, x).kind == "ok"
    for path in PATHS:
        ours = td.armsim_run(data, x, tmp_path, path)
        assert ours.kind == "refused" and "op 0 CONV_2D" in ours.message, (path, ours)
        assert "an empty dimension" in ours.message and td.documented_refusal(ours.message)
