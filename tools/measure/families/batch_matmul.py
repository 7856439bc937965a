"""Batch matmul, int8 and int16: lhs `input` [batch, height, M, K], rhs stored transposed in
`input2` [batch, height, N, K], as the unit tests pass them."""
from ..cgen import Output, act, array, buffer, cmsis_harness, dims, need, scratch

FAMILIES = ("batch_matmul", "batch_matmul_s16")


def harness(case, function=None, also=None):
    need(case, "bmm_params", "quant_params", "input_lhs_dims", "input_rhs_dims", "output_dims",
         "input", "input2")
    s16 = case["family"] == "batch_matmul_s16"
    t = "int16" if s16 else "int8"
    entry = "arm_batch_matmul_s16" if s16 else "arm_batch_matmul_s8"
    b, q, o = case["bmm_params"], case["quant_params"], case["output_dims"]
    p = b["fc_params"]
    n = o["n"] * o["h"] * o["w"] * o["c"]
    decls = [
        array("input", t, case["input"]), array("input2", t, case["input2"]),
        buffer("output", t, n),
        f"static const cmsis_nn_dims lhs_dims = {dims(case['input_lhs_dims'])};\n",
        f"static const cmsis_nn_dims rhs_dims = {dims(case['input_rhs_dims'])};\n",
        f"static const cmsis_nn_dims output_dims = {dims(o)};\n",
        f"static const cmsis_nn_bmm_params bmm_params = {{{int(bool(b['adj_x']))}, "
        f"{int(bool(b['adj_y']))}, {{{p['input_offset']}, {p['filter_offset']}, "
        f"{p['output_offset']}, {act(p['activation'])}}}}};\n",
        f"static const cmsis_nn_per_tensor_quant_params quant_params = "
        f"{{{q['multiplier']}, {q['shift']}}};\n",
    ]
    size = None if s16 else "arm_fully_connected_s8_get_buffer_size(&output_dims)"
    calls = {entry: (scratch(size), f"{entry}(&ctx, &bmm_params, &quant_params, &lhs_dims, input, "
                                    f"&rhs_dims, input2, &output_dims, {{out}})")}
    return cmsis_harness(case, entry, decls, calls, [Output("output", t, n)], ())
