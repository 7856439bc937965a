"""Element-wise add and multiply, int8 and int16 (`input` and `input2` are the two vectors)."""
from ..cgen import EvalTensor, Output, array, buffer, cmsis_harness, need, scratch, tflm_op_harness
from ._common import TFLM_KERNELS, activation, ints

FAMILIES = ("elementwise_add", "elementwise_add_s16", "elementwise_mul", "elementwise_mul_s16")
_ARGS = {
    "add": ("input_1_offset", "input_1_mult", "input_1_shift", "input_2_offset", "input_2_mult",
            "input_2_shift", "left_shift", None, "out_offset", "out_mult", "out_shift",
            "out_activation_min", "out_activation_max", "block_size"),
    "mul": ("input_1_offset", "input_2_offset", None, "out_offset", "out_mult", "out_shift",
            "out_activation_min", "out_activation_max", "block_size"),
}


def harness(case, function=None, also=None):
    fam = case["family"]
    op = "add" if "add" in fam else "mul"
    t = "int16" if fam.endswith("_s16") else "int8"
    entry = f"arm_elementwise_{op}_{'s16' if t == 'int16' else 's8'}"
    need(case, "input", "input2", *(a for a in _ARGS[op] if a))
    n = case["block_size"]
    decls = [array("input", t, case["input"]), array("input2", t, case["input2"]),
             buffer("output", t, n)]
    args = ", ".join("{out}" if a is None else str(int(case[a])) for a in _ARGS[op])
    calls = {entry: (scratch(None), f"{entry}(input, input2, {args})")}
    return cmsis_harness(case, entry, decls, calls, [Output("output", t, n)], ())


# --- random cases -----------------------------------------------------------------------------
# block lengths 1..1200 (odd, not multiples of 4 and long); parameters as TFLite's Prepare
# derives them from random scales and zero points
VARIANTS = {fam: ("short", "odd_length", "long") for fam in FAMILIES}


def random_case(family, variant, size, rng):
    """An element-wise add / mul case in the vectors' schema (no output_ref)."""
    from armsim.kernels.tflm.quantization_util import (quantize_multiplier,
                                                        quantize_multiplier_smaller_than_one_exp)
    s16 = family.endswith("_s16")
    n = {"short": int(rng.integers(1, 8)), "odd_length": int(rng.integers(4, 50)) * 2 + 1,
         "long": int(rng.integers(100, 1201))}[variant]
    if size == "tiny":
        n = min(n, 7)
    s1, s2, so = (float(rng.uniform(0.01, 0.1)) for _ in range(3))
    zp = (lambda: 0) if s16 else (lambda: int(rng.integers(-128, 128)))
    z1, z2, zo = zp(), zp(), zp()
    lo, hi = (-16384, 16383) if s16 else (-128, 127)
    act = activation(rng, -32768, 32767) if s16 else activation(rng)
    case = {"input_1_offset": -z1, "input_2_offset": -z2, "out_offset": zo,
            "out_activation_min": act["min"], "out_activation_max": act["max"], "block_size": n}
    if "add" in family:
        left = 15 if s16 else 20
        twice_max = 2 * max(s1, s2)
        m1, sh1 = quantize_multiplier_smaller_than_one_exp(s1 / twice_max)
        m2, sh2 = quantize_multiplier_smaller_than_one_exp(s2 / twice_max)
        mo, sho = quantize_multiplier_smaller_than_one_exp(twice_max / ((1 << left) * so))
        case.update(input_1_mult=m1, input_1_shift=sh1, input_2_mult=m2, input_2_shift=sh2,
                    left_shift=left, out_mult=mo, out_shift=sho)
    else:
        # s1 * s2 / s_out chosen so the product of two full-range inputs lands in range
        mo, sho = quantize_multiplier(float(rng.uniform(0.5, 2.0)) / (16384 if s16 else 128))
        case.update(out_mult=mo, out_shift=sho)
    case["input"] = ints(rng, lo, hi, n)
    case["input2"] = ints(rng, lo, hi, n)
    if s16:
        case["dtype"] = {"input": "int16", "output": "int16"}
    return case


def shape_tag(case):
    return str(case["block_size"])


# --- TFLM reference kernels (ref_O2) ----------------------------------------------------------
REF_FAMILIES = FAMILIES


def ref_harness(case):
    """TFLM's ADD / MUL Eval (micro/kernels/add.cc, mul.cc) with the op data their Prepare
    computes (no broadcast); tensor shape: the case's `tflite_shape` if given, else
    {block_size}."""
    fam = case["family"]
    t = "int16" if fam.endswith("_s16") else "int8"
    n = case["block_size"]
    shape = case.get("tflite_shape", [n])
    decls = [array("input", t, case["input"]), array("input2", t, case["input2"]),
             buffer("output", t, n)]
    tensors = [EvalTensor("input", t, shape), EvalTensor("input2", t, shape),
               EvalTensor("output", t, shape)]
    act_lines = [f"    op_data.output_activation_min = {case['out_activation_min']};\n",
                 f"    op_data.output_activation_max = {case['out_activation_max']};\n"]
    if "add" in fam:
        op_data = ("tflite::OpDataAdd", act_lines + [
            "    op_data.requires_broadcast = false;\n",
            f"    op_data.input1_shift = {case['input_1_shift']};\n",
            f"    op_data.input2_shift = {case['input_2_shift']};\n",
            f"    op_data.input1_multiplier = {case['input_1_mult']};\n",
            f"    op_data.input2_multiplier = {case['input_2_mult']};\n",
            f"    op_data.output_multiplier = {case['out_mult']};\n",
            f"    op_data.output_shift = {case['out_shift']};\n",
            f"    op_data.left_shift = {case['left_shift']};\n",
            f"    op_data.input1_offset = {case['input_1_offset']};\n",
            f"    op_data.input2_offset = {case['input_2_offset']};\n",
            f"    op_data.output_offset = {case['out_offset']};\n"])
        builtin = ("TfLiteAddParams", ["    builtin.activation = kTfLiteActNone;\n",
                                       "    builtin.pot_scale_int16 = false;\n"])
        register, header = "tflite::Register_ADD()", "add.h"
    else:
        op_data = ("tflite::OpDataMul", act_lines + [
            f"    op_data.input1_zero_point = {-case['input_1_offset']};\n",
            f"    op_data.input2_zero_point = {-case['input_2_offset']};\n",
            f"    op_data.output_zero_point = {case['out_offset']};\n",
            f"    op_data.output_multiplier = {case['out_mult']};\n",
            f"    op_data.output_shift = {case['out_shift']};\n"])
        builtin = ("TfLiteMulParams", ["    builtin.activation = kTfLiteActNone;\n"])
        register, header = "tflite::Register_MUL()", "mul.h"
    return tflm_op_harness(case, register, [TFLM_KERNELS + header], decls, tensors, [0, 1], [2],
                           op_data, builtin, [Output("output", t, n)])
