"""Softmax: arm_softmax_s8, arm_softmax_s8_s16 (int8 in, int16 out), arm_softmax_s16 (with
the case's exp / one-by-one lookup tables)."""
from ..cgen import EvalTensor, Output, array, buffer, cmsis_harness, need, scratch, tflm_op_harness
from ._common import TFLM_KERNELS, dim, ints

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


# --- random cases -----------------------------------------------------------------------------
# one row, several rows, long rows; the parameters TFLite derives from an input scale (beta 1)
VARIANTS = {fam: ("one_row", "rows", "long_row") for fam in FAMILIES}
MAX_ELEMENTS = {"softmax": 160, "softmax_s8_s16": 160, "softmax_s16": 800}


def random_case(family, variant, size, rng):
    """A softmax case in the vectors' schema (no output_ref)."""
    from armsim.kernels.tflm.quantization_util import (calculate_input_radius,
                                                        preprocess_softmax_scaling,
                                                        quantize_multiplier)
    for _ in range(1000):
        rows = 1 if variant == "one_row" else int(rng.integers(2, 6))
        row = dim(rng, size, 24)
        if variant == "long_row":
            row = int(rng.integers(25, 129)) if size == "medium" else row * 7
        # arm_softmax_s16 (99f736a) writes -32768 for a 1-element row, TFLM (and the numpy
        # oracle) 32767: a row of one is left out of the s16 data
        if rows * row <= MAX_ELEMENTS[family] and (row > 1 or family != "softmax_s16"):
            break
    case = {"num_rows": rows, "row_size": row}
    if family == "softmax_s16":
        from armsim.kernels.tflm.softmax_s16 import softmax_luts
        scale = float(rng.uniform(0.0003, 0.003))
        mult, shift = quantize_multiplier(scale * 65535 / 10.0)
        exp_lut, one_by_one_lut = softmax_luts()
        case.update(mult=mult, shift=shift, input_scale=scale, exp_lut=exp_lut.tolist(),
                    one_by_one_lut=one_by_one_lut.tolist(),
                    input=ints(rng, -16384, 16383, rows * row),
                    dtype={"input": "int16", "output": "int16"})
    else:
        scale = float(rng.uniform(0.01, 0.3))
        mult, left = preprocess_softmax_scaling(1.0, scale, 5)
        case.update(mult=mult, shift=left, diff_min=-calculate_input_radius(5, left),
                    input=ints(rng, -128, 127, rows * row))
        if family == "softmax_s8_s16":
            case["dtype"] = {"input": "int8", "output": "int16"}
    return case


def shape_tag(case):
    return f"{case['num_rows']}x{case['row_size']}"


# --- TFLM reference kernels (ref_O2) ----------------------------------------------------------
REF_FAMILIES = FAMILIES


def ref_harness(case):
    """TFLM's SOFTMAX Eval (micro/kernels/softmax.cc) with the SoftmaxParams its Prepare
    computes (input_multiplier / input_left_shift / diff_min; int16: the two LUTs); it calls
    reference_ops::Softmax (int8 in, int8 or int16 out) or SoftmaxInt16.  Tensor shape:
    the case's `tflite_shape` if given, else {rows, row}."""
    fam = case["family"]
    t_in = "int16" if fam == "softmax_s16" else "int8"
    t_out = "int8" if fam == "softmax" else "int16"
    rows, row = case["num_rows"], case["row_size"]
    shape = case.get("tflite_shape", [rows, row])
    decls = [array("input", t_in, case["input"]), buffer("output", t_out, rows * row)]
    lines = [f"    op_data.input_multiplier = {case['mult']};\n",
             f"    op_data.input_left_shift = {case['shift']};\n"]
    if fam == "softmax_s16":
        decls += [array("exp_lut", "int16", case["exp_lut"], const=False),
                  array("one_by_one_lut", "int16", case["one_by_one_lut"], const=False)]
        lines += ["    op_data.exp_lut = exp_lut;\n",
                  "    op_data.one_over_one_plus_x_lut = one_by_one_lut;\n"]
    else:
        lines.append(f"    op_data.diff_min = {case['diff_min']};\n")
    tensors = [EvalTensor("input", t_in, shape), EvalTensor("output", t_out, shape)]
    return tflm_op_harness(case, "tflite::Register_SOFTMAX()", [TFLM_KERNELS + "softmax.h"], decls,
                           tensors, [0], [1], ("tflite::SoftmaxParams", lines),
                           ("TfLiteSoftmaxParams", ["    builtin.beta = 1.0f;\n"]),
                           [Output("output", t_out, rows * row)])
