"""Fully connected with int16 activations (int64 bias) and with packed int4 weights."""
from ..cgen import Output, act, array, buffer, cmsis_harness, dims, need, scratch
from ._common import bias_ref, dtype_of, packed_weights

FAMILIES = ("fully_connected_s16", "fully_connected_s4")


def harness(case, function=None, also=None):
    need(case, "input_dims", "filter_dims", "output_dims", "fc_params", "quant_params",
         "input", "weights", "bias")
    fam = case["family"]
    s16 = fam == "fully_connected_s16"
    entry = "arm_fully_connected_s16" if s16 else "arm_fully_connected_s4"
    t = "int16" if s16 else "int8"
    p, q, f = case["fc_params"], case["quant_params"], case["filter_dims"]
    out_c = case["output_dims"]["c"]
    n_out = case["input_dims"]["n"] * out_c
    weights = case["weights"] if s16 else packed_weights(case, f["n"] * out_c)
    decls = [
        array("input", t, case["input"]), array("weights", "int8", weights),
        array("bias", dtype_of(case, "bias", "int64" if s16 else "int32"), case["bias"]),
        buffer("output", t, n_out),
        f"static const cmsis_nn_dims input_dims = {dims(case['input_dims'])};\n",
        f"static const cmsis_nn_dims filter_dims = {dims(f)};\n",
        f"static const cmsis_nn_dims bias_dims = {{1, 1, 1, {out_c}}};\n",
        f"static const cmsis_nn_dims output_dims = {dims(case['output_dims'])};\n",
        f"static const cmsis_nn_fc_params fc_params = {{{p['input_offset']}, {p['filter_offset']}, "
        f"{p['output_offset']}, {act(p['activation'])}}};\n",
        f"static const cmsis_nn_per_tensor_quant_params quant_params = "
        f"{{{q['multiplier']}, {q['shift']}}};\n",
    ]
    size = "arm_fully_connected_s16_get_buffer_size(&filter_dims)" if s16 else None
    calls = {entry: (scratch(size), f"{entry}(&ctx, &fc_params, &quant_params, &input_dims, input, "
                     f"&filter_dims, weights, &bias_dims, {bias_ref(case)}, &output_dims, {{out}})")}
    return cmsis_harness(case, entry, decls, calls, [Output("output", t, n_out)], ())
