"""Average and max pooling, int8 and int16."""
from ..cgen import Output, act, array, buffer, cmsis_harness, dims, need, scratch, tile

FAMILIES = ("avgpool", "avgpool_s16", "maxpool", "maxpool_s16")
_ENTRY = {"avgpool": "arm_avgpool_s8", "avgpool_s16": "arm_avgpool_s16",
          "maxpool": "arm_max_pool_s8", "maxpool_s16": "arm_max_pool_s16"}


def harness(case, function=None, also=None):
    need(case, "input_dims", "filter_dims", "output_dims", "pool_params", "input")
    fam = case["family"]
    entry = _ENTRY[fam]
    t = "int16" if fam.endswith("_s16") else "int8"
    o, p = case["output_dims"], case["pool_params"]
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    decls = [
        array("input", t, case["input"]), buffer("output", t, n_out),
        f"static const cmsis_nn_dims input_dims = {dims(case['input_dims'])};\n",
        f"static const cmsis_nn_dims filter_dims = {dims(case['filter_dims'])};\n",
        f"static const cmsis_nn_dims output_dims = {dims(o)};\n",
        f"static const cmsis_nn_pool_params pool_params = {{{tile(p['stride'])}, "
        f"{tile(p['padding'])}, {act(p['activation'])}}};\n",
    ]
    size = (f"{entry}_get_buffer_size(output_dims.w, input_dims.c)"
            if fam.startswith("avgpool") else None)
    calls = {entry: (scratch(size), f"{entry}(&ctx, &pool_params, &input_dims, input, &filter_dims, "
                                    f"&output_dims, {{out}})")}
    return cmsis_harness(case, entry, decls, calls, [Output("output", t, n_out)], ())
