"""Batch matmul, int8 and int16: lhs `input` [batch, height, M, K], rhs stored transposed in
`input2` [batch, height, N, K], as the unit tests pass them."""
import numpy as np

from ..cgen import (TFLM_TYPES, EvalTensor, Output, act, array, buffer, cmsis_harness, dims, need,
                    scratch, tflm_op_harness)
from ._common import TFLM_KERNELS, activation, dim, ints, out_shift

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


# --- random cases -----------------------------------------------------------------------------
VARIANTS = {fam: ("single", "batched", "broadcast_lhs", "broadcast_rhs") for fam in FAMILIES}
MAC_BUDGET = 16_000


def random_case(family, variant, size, rng):
    """A batch-matmul case: lhs [B, H, M, K] in `input`, rhs transposed [B, H, N, K] in
    `input2` (no output_ref)."""
    s16 = family == "batch_matmul_s16"
    for _ in range(1000):
        b, h = (1, 1) if variant == "single" else (int(rng.integers(1, 3)), int(rng.integers(1, 4)))
        m, n, k = dim(rng, size, 16), dim(rng, size, 16), dim(rng, size, 32)
        lb, lh, rb, rh = b, h, b, h
        if variant == "broadcast_lhs":
            lb, lh = 1, 1
        elif variant == "broadcast_rhs":
            rb, rh = 1, 1
        if b * h * m * n * k <= MAC_BUDGET:
            break
    lo, hi = (-16384, 16383) if s16 else (-128, 127)
    case = {
        "bmm_params": {"adj_x": False, "adj_y": False, "fc_params": {
            "input_offset": 0 if s16 else int(rng.integers(-127, 129)),
            "filter_offset": 0 if s16 else int(rng.integers(-127, 129)),
            "output_offset": 0 if s16 else int(rng.integers(-128, 128)),
            "activation": activation(rng, -32768, 32767) if s16 else activation(rng)}},
        "quant_params": {"multiplier": int(rng.integers(1 << 30, 1 << 31)),
                         "shift": out_shift(rng, k) - (14 if s16 else 0)},
        "input_lhs_dims": {"n": lb, "h": lh, "w": m, "c": k},
        "input_rhs_dims": {"n": rb, "h": rh, "w": n, "c": k},
        "output_dims": {"n": b, "h": h, "w": m, "c": n},
        "input": ints(rng, lo, hi, lb * lh * m * k),
        "input2": ints(rng, lo, hi, rb * rh * n * k),
    }
    if s16:
        case["dtype"] = {"input": "int16", "input2": "int16", "output_ref": "int16"}
    return case


def shape_tag(case):
    l, r = case["input_lhs_dims"], case["input_rhs_dims"]
    return f"l{l['n']}x{l['h']}x{l['w']}x{l['c']}_r{r['n']}x{r['h']}x{r['w']}"


# --- TFLM reference kernels (ref_O2) ----------------------------------------------------------
REF_FAMILIES = FAMILIES


def ref_harness(case):
    """TFLM's BATCH_MATMUL Eval (micro/kernels/batch_matmul.cc) as it runs for a constant rhs
    that Prepare already transposed (armsim's reference path assumes the same): the node's rhs
    is [B, H, K, N], OpDataBatchMatmul.rhs_transposed_tensor holds the case's `input2`
    [B, H, N, K]; the reference BatchMatMul<int8/int16> follows."""
    s16 = case["family"] == "batch_matmul_s16"
    t = "int16" if s16 else "int8"
    b, q = case["bmm_params"], case["quant_params"]
    p = b["fc_params"]
    l, r, o = case["input_lhs_dims"], case["input_rhs_dims"], case["output_dims"]
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    rhs = np.asarray(case["input2"]).reshape(r["n"], r["h"], r["w"], r["c"]).swapaxes(-1, -2)
    decls = [array("input", t, case["input"]), array("rhs", t, rhs.ravel().tolist()),
             array("input2", t, case["input2"]), buffer("output", t, n_out),
             "static tflite::QuantizationOpDataBatchMatmul quantization;\n",
             "static TfLiteEvalTensor rhs_transposed;\n",
             f"static int dims_rhs_transposed[] = {{4, {r['n']}, {r['h']}, {r['w']}, {r['c']}}};\n"]
    tensors = [EvalTensor("input", t, [l["n"], l["h"], l["w"], l["c"]]),
               EvalTensor("rhs", t, [r["n"], r["h"], r["c"], r["w"]]),
               EvalTensor("output", t, [o["n"], o["h"], o["w"], o["c"]])]
    op_data = ("tflite::OpDataBatchMatmul", [
        f"    quantization.output_multiplier = {q['multiplier']};\n",
        f"    quantization.output_shift = {q['shift']};\n",
        f"    quantization.output_activation_min = {p['activation']['min']};\n",
        f"    quantization.output_activation_max = {p['activation']['max']};\n",
        f"    quantization.lhs_zero_point = {-p['input_offset']};\n",
        f"    quantization.rhs_zero_point = {-p['filter_offset']};\n",
        f"    quantization.output_zero_point = {p['output_offset']};\n",
        "    op_data.quantization = &quantization;\n",
        "    rhs_transposed.data.data = (void *)input2;\n",
        "    rhs_transposed.dims = reinterpret_cast<TfLiteIntArray *>(dims_rhs_transposed);\n",
        f"    rhs_transposed.type = {TFLM_TYPES[t]};\n",
        "    op_data.rhs_transposed_tensor = &rhs_transposed;\n",
        "    op_data.lhs_transposed_tensor = nullptr;\n",
        "    op_data.rhs_is_transposed = true;\n",
        "    op_data.rhs_is_constant_tensor = true;\n",
        "    op_data.lhs_is_constant_tensor = false;\n"])
    builtin = ("TfLiteBatchMatMulParams", ["    builtin.adj_x = false;\n", "    builtin.adj_y = false;\n"])
    return tflm_op_harness(case, "tflite::Register_BATCH_MATMUL()", [TFLM_KERNELS + "batch_matmul.h"],
                           decls, tensors, [0, 1], [2], op_data, builtin, [Output("output", t, n_out)])
