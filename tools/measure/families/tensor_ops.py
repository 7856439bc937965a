"""Data movement and comparison: transpose, pad, maximum, minimum (int8)."""
from ..cgen import CaseError, Output, array, buffer, cmsis_harness, dims, need, scratch

FAMILIES = ("transpose", "pad", "maximum", "minimum")


def _count(d):
    return max(d["n"], 1) * max(d["h"], 1) * max(d["w"], 1) * max(d.get("c", 1), 1)


def harness(case, function=None, also=None):
    fam = case["family"]
    need(case, "input")
    decls = [array("input", "int8", case["input"])]
    if fam == "transpose":
        need(case, "input_dims", "output_dims", "transpose_params")
        tp = case["transpose_params"]
        n = len(case["input"])
        entry = "arm_transpose_s8"
        decls += [buffer("output", "int8", n),
                  f"static const cmsis_nn_dims input_dims = {dims(case['input_dims'])};\n",
                  f"static const cmsis_nn_dims output_dims = {dims(case['output_dims'])};\n",
                  array("permutations", "uint32", tp["permutations"]),
                  f"static const cmsis_nn_transpose_params transpose_params = "
                  f"{{{tp['num_dims']}, permutations}};\n"]
        call = "arm_transpose_s8(input, {out}, &input_dims, &output_dims, &transpose_params)"
    elif fam == "pad":
        need(case, "input_dims", "pre_pad", "post_pad", "pad_value")
        i, pre, post = case["input_dims"], case["pre_pad"], case["post_pad"]
        n = 1
        for k in "nhwc":
            n *= i[k] + pre[k] + post[k]
        entry = "arm_pad_s8"
        decls += [buffer("output", "int8", n),
                  f"static const cmsis_nn_dims input_dims = {dims(i)};\n",
                  f"static const cmsis_nn_dims pre_pad = {dims(pre)};\n",
                  f"static const cmsis_nn_dims post_pad = {dims(post)};\n"]
        call = f"arm_pad_s8(input, {{out}}, {int(case['pad_value'])}, &input_dims, &pre_pad, &post_pad)"
    elif fam in ("maximum", "minimum"):
        need(case, "input2", "input_1_dims", "input_2_dims", "output_dims")
        n = _count(case["output_dims"])
        entry = f"arm_{fam}_s8"
        decls += [array("input2", "int8", case["input2"]), buffer("output", "int8", n),
                  f"static const cmsis_nn_dims input_1_dims = {dims(case['input_1_dims'])};\n",
                  f"static const cmsis_nn_dims input_2_dims = {dims(case['input_2_dims'])};\n",
                  f"static const cmsis_nn_dims output_dims = {dims(case['output_dims'])};\n"]
        call = f"{entry}(&ctx, input, &input_1_dims, input2, &input_2_dims, {{out}}, &output_dims)"
    else:
        raise CaseError(f"{case.get('case', '?')}: family {fam!r}")
    return cmsis_harness(case, entry, decls, {entry: (scratch(None), call)},
                         [Output("output", "int8", n)], ())
