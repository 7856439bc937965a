"""Convolution, int8 / int16 activations and int8 / packed int4 weights: the wrappers and every
kernel they dispatch to, each with its own `*_get_buffer_size` for the scratch."""
from ..cgen import Output, act, array, buffer, cmsis_harness, dims, need, scratch, tile
from ._common import also_of, bias_ref, dtype_of, packed_weights

FAMILIES = ("conv", "conv_s16", "conv_s4")
WRAPPER = {"conv": "arm_convolve_wrapper_s8", "conv_s16": "arm_convolve_wrapper_s16",
           "conv_s4": "arm_convolve_wrapper_s4"}
# entry point -> its scratch-size call (None: the kernel takes no scratch)
_SIZE = {
    "arm_convolve_wrapper_s8": "arm_convolve_wrapper_s8_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
    "arm_convolve_s8": "arm_convolve_s8_get_buffer_size(&input_dims, &filter_dims)",
    "arm_convolve_1x1_s8_fast": "arm_convolve_1x1_s8_fast_get_buffer_size(&input_dims)",
    "arm_convolve_1x1_s8": None,
    "arm_convolve_1_x_n_s8": "arm_convolve_1_x_n_s8_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
    "arm_convolve_wrapper_s16": "arm_convolve_wrapper_s16_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
    "arm_convolve_s16": "arm_convolve_s16_get_buffer_size(&input_dims, &filter_dims)",
    "arm_convolve_wrapper_s4": "arm_convolve_wrapper_s4_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
    "arm_convolve_s4": "arm_convolve_s4_get_buffer_size(&input_dims, &filter_dims)",
    "arm_convolve_1x1_s4_fast": "arm_convolve_1x1_s4_fast_get_buffer_size(&input_dims)",
    "arm_convolve_1x1_s4": None,
    "arm_convolve_1_x_n_s4": "arm_convolve_1_x_n_s4_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
}


def entries(family):
    suffix = {"conv": "_s8", "conv_s16": "_s16", "conv_s4": "_s4"}[family]
    return tuple(e for e in _SIZE if e.endswith(suffix) or e.endswith(suffix + "_fast"))


def harness(case, function=None, also=None):
    need(case, "input_dims", "filter_dims", "output_dims", "conv_params", "input", "weights",
         "bias", "output_mult", "output_shift")
    fam = case["family"]
    entry = function or case.get("function") or WRAPPER[fam]
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["conv_params"]
    act_t = "int16" if fam == "conv_s16" else "int8"
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    if fam == "conv_s4":
        weights = array("weights", "int8", packed_weights(case, o["c"] * f["h"] * f["w"] * f["c"]))
    else:
        weights = array("weights", "int8", case["weights"])
    bias_t = dtype_of(case, "bias", "int64" if fam == "conv_s16" else "int32")
    if fam == "conv_s16" and "bias_is_int32" in case:
        bias_t = "int32" if case["bias_is_int32"] else "int64"
    decls = [
        array("input", act_t, case["input"]), weights, array("bias", bias_t, case["bias"]),
        array("output_mult", "int32", case["output_mult"], const=False),
        array("output_shift", "int32", case["output_shift"], const=False),
        buffer("output", act_t, n_out),
        f"static const cmsis_nn_dims input_dims = {dims(i)};\n",
        f"static const cmsis_nn_dims filter_dims = {dims(f)};\n",
        f"static const cmsis_nn_dims bias_dims = {{1, 1, 1, {o['c']}}};\n",
        f"static const cmsis_nn_dims output_dims = {dims(o)};\n",
        f"static const cmsis_nn_conv_params conv_params = {{{p['input_offset']}, {p['output_offset']}, "
        f"{tile(p['stride'])}, {tile(p['padding'])}, {tile(p['dilation'])}, {act(p['activation'])}}};\n",
        "static const cmsis_nn_per_channel_quant_params quant_params = {output_mult, output_shift};\n",
    ]
    bias = bias_ref(case)
    if fam == "conv_s16":
        decls.append(f"static const cmsis_nn_bias_data bias_data = {{{bias}, "
                     f"{'true' if bias_t == 'int32' else 'false'}}};\n")
        bias = "&bias_data"
    calls = {}
    for name in entries(fam):
        upscale = "NULL, " if name == "arm_convolve_s8" else ""
        calls[name] = (scratch(_SIZE[name]), f"{name}(&ctx, &conv_params, &quant_params, &input_dims, input, "
                       f"&filter_dims, weights, &bias_dims, {bias}, {upscale}&output_dims, {{out}})")
    return cmsis_harness(case, entry, decls, calls, [Output("output", act_t, n_out)],
                         also_of(case, entry, calls, also))
