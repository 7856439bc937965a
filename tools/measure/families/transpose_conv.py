"""Transpose convolution, int8: arm_transpose_conv_wrapper_s8 (reverse-convolution path
through arm_convolve_s8, or arm_transpose_conv_s8) and arm_transpose_conv_s8 itself.  ctx
gets `arm_transpose_conv_s8_get_buffer_size`, the second context (reversed filter)
`arm_transpose_conv_s8_get_reverse_conv_buffer_size`, as the unit test allocates them."""
from ..cgen import Output, act, array, buffer, cmsis_harness, dims, need, tile
from ._common import also_of, bias_ref

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
