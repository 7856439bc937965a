"""Depthwise convolution, int8 / int16 activations and int8 / packed int4 weights: the
wrappers and every kernel they dispatch to, each with its own `*_get_buffer_size`."""
from ..cgen import Output, act, array, buffer, cmsis_harness, dims, need, scratch, tile
from ._common import also_of, bias_ref, dtype_of, packed_weights

FAMILIES = ("depthwise_conv", "depthwise_conv_s16", "depthwise_conv_s4")
WRAPPER = {"depthwise_conv": "arm_depthwise_conv_wrapper_s8",
           "depthwise_conv_s16": "arm_depthwise_conv_wrapper_s16",
           "depthwise_conv_s4": "arm_depthwise_conv_wrapper_s4"}
_WRAPPED_SIZE = "_get_buffer_size(&dw_conv_params, &input_dims, &filter_dims, &output_dims)"
# entry point -> its scratch-size call (None: the kernel takes no scratch)
_SIZE = {
    "depthwise_conv": {
        "arm_depthwise_conv_wrapper_s8": "arm_depthwise_conv_wrapper_s8" + _WRAPPED_SIZE,
        "arm_depthwise_conv_3x3_s8": None,
        "arm_depthwise_conv_s8_opt": "arm_depthwise_conv_s8_opt_get_buffer_size(&input_dims, &filter_dims)",
        "arm_depthwise_conv_s8": None,
    },
    "depthwise_conv_s16": {
        "arm_depthwise_conv_wrapper_s16": "arm_depthwise_conv_wrapper_s16" + _WRAPPED_SIZE,
        "arm_depthwise_conv_fast_s16": "arm_depthwise_conv_fast_s16_get_buffer_size(&input_dims, &filter_dims)",
        "arm_depthwise_conv_s16": None,
    },
    "depthwise_conv_s4": {
        "arm_depthwise_conv_wrapper_s4": "arm_depthwise_conv_wrapper_s4" + _WRAPPED_SIZE,
        "arm_depthwise_conv_s4_opt": "arm_depthwise_conv_s4_opt_get_buffer_size(&input_dims, &filter_dims)",
        "arm_depthwise_conv_s4": None,
    },
}


def harness(case, function=None, also=None):
    need(case, "input_dims", "filter_dims", "output_dims", "dw_conv_params", "input", "weights",
         "bias", "output_mult", "output_shift")
    fam = case["family"]
    entry = function or case.get("function") or WRAPPER[fam]
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["dw_conv_params"]
    act_t = "int16" if fam == "depthwise_conv_s16" else "int8"
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    if fam == "depthwise_conv_s4":
        weights = array("weights", "int8", packed_weights(case, f["h"] * f["w"] * o["c"]))
    else:
        weights = array("weights", "int8", case["weights"])
    bias_t = dtype_of(case, "bias", "int64" if fam == "depthwise_conv_s16" else "int32")
    decls = [
        array("input", act_t, case["input"]), weights, array("bias", bias_t, case["bias"]),
        array("output_mult", "int32", case["output_mult"], const=False),
        array("output_shift", "int32", case["output_shift"], const=False),
        buffer("output", act_t, n_out),
        f"static const cmsis_nn_dims input_dims = {dims(i)};\n",
        f"static const cmsis_nn_dims filter_dims = {dims(f)};\n",
        f"static const cmsis_nn_dims bias_dims = {{1, 1, 1, {o['c']}}};\n",
        f"static const cmsis_nn_dims output_dims = {dims(o)};\n",
        f"static const cmsis_nn_dw_conv_params dw_conv_params = {{{p['input_offset']}, "
        f"{p['output_offset']}, {p['ch_mult']}, {tile(p['stride'])}, {tile(p['padding'])}, "
        f"{tile(p['dilation'])}, {act(p['activation'])}}};\n",
        "static const cmsis_nn_per_channel_quant_params quant_params = {output_mult, output_shift};\n",
    ]
    calls = {name: (scratch(size), f"{name}(&ctx, &dw_conv_params, &quant_params, &input_dims, input, "
                          f"&filter_dims, weights, &bias_dims, {bias_ref(case)}, &output_dims, {{out}})")
             for name, size in _SIZE[fam].items()}
    return cmsis_harness(case, entry, decls, calls, [Output("output", act_t, n_out)],
                         also_of(case, entry, calls, also))
