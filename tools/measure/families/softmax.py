"""Softmax: arm_softmax_s8, arm_softmax_s8_s16 (int8 in, int16 out), arm_softmax_s16 (with
the case's exp / one-by-one lookup tables)."""
from ..cgen import Output, array, buffer, cmsis_harness, need, scratch

FAMILIES = ("softmax", "softmax_s8_s16", "softmax_s16")
_ENTRY = {"softmax": "arm_softmax_s8", "softmax_s8_s16": "arm_softmax_s8_s16",
          "softmax_s16": "arm_softmax_s16"}


def harness(case, function=None, also=None):
    need(case, "num_rows", "row_size", "mult", "shift", "input")
    fam = case["family"]
    entry = _ENTRY[fam]
    t_in = "int16" if fam == "softmax_s16" else "int8"
    t_out = "int8" if fam == "softmax" else "int16"
    n = case["num_rows"] * case["row_size"]
    decls = [array("input", t_in, case["input"]), buffer("output", t_out, n)]
    head = f"{entry}(input, {case['num_rows']}, {case['row_size']}, {case['mult']}, {case['shift']}, "
    if fam == "softmax_s16":
        need(case, "exp_lut", "one_by_one_lut")
        decls += [array("exp_lut", "int16", case["exp_lut"]),
                  array("one_by_one_lut", "int16", case["one_by_one_lut"]),
                  "static const cmsis_nn_softmax_lut_s16 lut = {exp_lut, one_by_one_lut};\n"]
        call = head + "&lut, {out})"
    else:
        need(case, "diff_min")
        call = f"({head}{case['diff_min']}, {{out}}), 0)"   # void: status 0
    return cmsis_harness(case, entry, decls, {entry: (scratch(None), call)},
                         [Output("output", t_out, n)], ())
