"""Transpose convolution, int8: arm_transpose_conv_wrapper_s8 (reverse-convolution path
through arm_convolve_s8, or arm_transpose_conv_s8) and arm_transpose_conv_s8 itself.  ctx
gets `arm_transpose_conv_s8_get_buffer_size`, the second context (reversed filter)
`arm_transpose_conv_s8_get_reverse_conv_buffer_size`, as the unit test allocates them."""
from ..cgen import (EvalTensor, Output, act, array, buffer, cmsis_harness, dims, need, tflm_op_harness,
                    tile)
from ._common import TFLM_KERNELS, activation, also_of, bias_ref, dim, ints, per_channel

FAMILIES = ("transpose_conv",)
WRAPPER = "arm_transpose_conv_wrapper_s8"
_SETUP = ("scratch_used = 0;\n"
          "    set_context(&ctx, arm_transpose_conv_s8_get_buffer_size(&tconv_params, &input_dims, "
          "&filter_dims, &output_dims));\n"
          "    set_context(&ctx2, arm_transpose_conv_s8_get_reverse_conv_buffer_size(&tconv_params, "
          "&input_dims, &filter_dims));")


def harness(case, function=None, also=None):
    need(case, "input_dims", "filter_dims", "output_dims", "transpose_conv_params", "input",
         "weights", "bias", "output_mult", "output_shift")
    entry = function or case.get("function") or WRAPPER
    o, p = case["output_dims"], case["transpose_conv_params"]
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    decls = [
        array("input", "int8", case["input"]), array("weights", "int8", case["weights"]),
        array("bias", "int32", case["bias"]),
        array("output_mult", "int32", case["output_mult"], const=False),
        array("output_shift", "int32", case["output_shift"], const=False),
        buffer("output", "int8", n_out),
        "static cmsis_nn_context ctx2;\n",
        f"static const cmsis_nn_dims input_dims = {dims(case['input_dims'])};\n",
        f"static const cmsis_nn_dims filter_dims = {dims(case['filter_dims'])};\n",
        f"static const cmsis_nn_dims bias_dims = {{1, 1, 1, {o['c']}}};\n",
        f"static const cmsis_nn_dims output_dims = {dims(o)};\n",
        f"static const cmsis_nn_transpose_conv_params tconv_params = {{{p['input_offset']}, "
        f"{p['output_offset']}, {tile(p['stride'])}, {tile(p['padding'])}, "
        f"{tile(p['padding_offsets'])}, {tile(p['dilation'])}, {act(p['activation'])}}};\n",
        "static const cmsis_nn_per_channel_quant_params quant_params = {output_mult, output_shift};\n",
    ]
    tail = (f"(&ctx, &ctx2, &tconv_params, &quant_params, &input_dims, input, &filter_dims, "
            f"weights, &bias_dims, {bias_ref(case)}, &output_dims, {{out}})")
    calls = {name: (_SETUP, name + tail) for name in (WRAPPER, "arm_transpose_conv_s8")}
    return cmsis_harness(case, entry, decls, calls, [Output("output", "int8", n_out)],
                         also_of(case, entry, calls, also))


# --- random cases -----------------------------------------------------------------------------
# the wrapper's two paths: arm_transpose_conv_s8 (stride > 2 or at most 16 input channels;
# SAME and VALID output sizes) and the reverse convolution through arm_convolve_s8
VARIANTS = {"transpose_conv": ("transpose_same", "transpose_valid", "transpose_stride3",
                               "reverse_s1", "reverse_s2")}
MAC_BUDGET = 6_000       # input MACs (the reverse path convolves the upscaled input: x stride^2)


def dispatch(case):
    """arm_transpose_conv_wrapper_s8's choice (non-MVE)."""
    s, c = case["transpose_conv_params"]["stride"], case["input_dims"]["c"]
    return "arm_convolve_s8" if s["h"] <= 2 and s["w"] <= 2 and c > 16 else "arm_transpose_conv_s8"


def random_case(family, variant, size, rng):
    """A transpose-conv case (vectors' schema, TFLite output sizes; no output_ref)."""
    for _ in range(1000):
        n = int(rng.integers(1, 3))
        ih, iw = dim(rng, size, 6), dim(rng, size, 6)
        oc = dim(rng, size, 12)
        kh, kw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        if variant.startswith("reverse"):
            ic = int(rng.integers(17, 33))
            s = 1 if variant == "reverse_s1" else 2
            sh = sw = s
        else:
            ic = min(dim(rng, size, 16), 16)
            sh, sw = int(rng.integers(1, 3)), int(rng.integers(1, 3))
            if variant == "transpose_stride3":
                ic, sh = dim(rng, size, 24), 3
        same = variant != "transpose_valid"
        if same:
            oh, ow = ih * sh, iw * sw
            th, tw = max(kh - sh, 0), max(kw - sw, 0)
        else:
            oh, ow = (ih - 1) * sh + kh, (iw - 1) * sw + kw
            th = tw = 0
        upscale = sh * sw if variant.startswith("reverse") else 1
        if n * ih * iw * ic * oc * kh * kw * upscale <= MAC_BUDGET:
            break
    m, shift = per_channel(rng, oc, kh * kw * ic)
    bias_null = bool(rng.random() < 0.15)
    return {
        "input_dims": {"n": n, "h": ih, "w": iw, "c": ic},
        "filter_dims": {"n": oc, "h": kh, "w": kw, "c": ic},
        "output_dims": {"n": n, "h": oh, "w": ow, "c": oc},
        "transpose_conv_params": {
            "input_offset": int(rng.integers(-127, 129)), "output_offset": int(rng.integers(-128, 128)),
            "stride": {"h": sh, "w": sw}, "padding": {"h": th // 2, "w": tw // 2},
            "padding_offsets": {"h": th % 2, "w": tw % 2}, "dilation": {"h": 1, "w": 1},
            "activation": activation(rng)},
        "bias_is_null": bias_null,
        "input": ints(rng, -128, 127, n * ih * iw * ic),
        "weights": ints(rng, -127, 127, oc * kh * kw * ic),
        "bias": [0] * oc if bias_null else ints(rng, -5000, 5000, oc),
        "output_mult": m, "output_shift": shift,
    }


def shape_tag(case):
    i, f, p = case["input_dims"], case["filter_dims"], case["transpose_conv_params"]
    return (f"{i['n']}x{i['h']}x{i['w']}x{i['c']}_k{f['h']}x{f['w']}_o{f['n']}"
            f"_s{p['stride']['h']}{p['stride']['w']}")


# --- TFLM reference kernel (ref_O2) -----------------------------------------------------------
REF_FAMILIES = FAMILIES
# transpose_conv.cc's OpData lives in an anonymous namespace: the same members, in order
# (USE_TFLM_COMPRESSION off)
_OP_DATA = """struct TransposeConvOpData
{
    tflite::ConvParams params;
    int scratch_buffer_index;
    int bias_converted_buffer_index;
    int32_t *per_channel_output_multiplier;
    int32_t *per_channel_output_shift;
};
"""


def ref_harness(case):
    """TFLM's TRANSPOSE_CONV Eval (micro/kernels/transpose_conv.cc): int8 ->
    reference_integer_ops::TransposeConv with an int32 scratch of the output's size.  Inputs
    as TFLite orders them: 0 output shape, 1 filter, 2 input, 3 bias."""
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["transpose_conv_params"]
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    decls = [_OP_DATA, array("out_shape", "int32", [o["n"], o["h"], o["w"], o["c"]]),
             array("weights", "int8", case["weights"]), array("input", "int8", case["input"]),
             array("bias", "int32", case["bias"]),
             array("output_mult", "int32", case["output_mult"], const=False),
             array("output_shift", "int32", case["output_shift"], const=False),
             buffer("output", "int8", n_out)]
    tensors = [EvalTensor("output", "int8", [o["n"], o["h"], o["w"], o["c"]]),
               EvalTensor("weights", "int8", [f["n"], f["h"], f["w"], f["c"]]),
               EvalTensor("input", "int8", [i["n"], i["h"], i["w"], i["c"]]),
               EvalTensor("bias", "int32", [o["c"]]),
               EvalTensor("out_shape", "int32", [4])]
    pad, off = p["padding"], p["padding_offsets"]
    op_data = ("TransposeConvOpData", [
        f"    op_data.params.padding_values.width = {pad['w']};\n",
        f"    op_data.params.padding_values.height = {pad['h']};\n",
        f"    op_data.params.padding_values.width_offset = {off['w']};\n",
        f"    op_data.params.padding_values.height_offset = {off['h']};\n",
        f"    op_data.params.stride_width = {p['stride']['w']};\n",
        f"    op_data.params.stride_height = {p['stride']['h']};\n",
        "    op_data.params.dilation_width_factor = 1;\n",
        "    op_data.params.dilation_height_factor = 1;\n",
        f"    op_data.params.input_offset = {p['input_offset']};\n",
        "    op_data.params.weights_offset = 0;\n",
        f"    op_data.params.output_offset = {p['output_offset']};\n",
        f"    op_data.params.quantized_activation_min = {p['activation']['min']};\n",
        f"    op_data.params.quantized_activation_max = {p['activation']['max']};\n",
        "    op_data.scratch_buffer_index = 0;\n",
        "    op_data.per_channel_output_multiplier = output_mult;\n",
        "    op_data.per_channel_output_shift = output_shift;\n"])
    builtin = ("TfLiteTransposeConvParams", [
        f"    builtin.padding = {'kTfLitePaddingSame' if o['h'] == i['h'] * p['stride']['h'] else 'kTfLitePaddingValid'};\n",
        f"    builtin.stride_width = {p['stride']['w']};\n",
        f"    builtin.stride_height = {p['stride']['h']};\n",
        "    builtin.activation = kTfLiteActNone;\n",
        "    builtin.quantized_bias_type = kTfLiteInt32;\n"])
    bias = [3] if not case.get("bias_is_null") else []
    return tflm_op_harness(case, "tflite::Register_TRANSPOSE_CONV()",
                           [TFLM_KERNELS + "transpose_conv.h", TFLM_KERNELS + "micro_ops.h"],
                           decls, tensors, [4, 1, 2] + bias, [0], op_data, builtin,
                           [Output("output", "int8", n_out)], scratch_sizes=[4 * n_out])
