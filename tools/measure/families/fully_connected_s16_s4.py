"""Fully connected with int16 activations (int64 bias) and with packed int4 weights."""
from ..cgen import (TFLM_TYPES, EvalTensor, Output, act, array, buffer, cmsis_harness, dims, need,
                    scratch, tflm_op_harness)
from ._common import (TFLM_KERNELS, activation, bias_ref, dtype_of, ints, out_shift, pack_int4,
                      packed_weights)

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


# --- random cases -----------------------------------------------------------------------------
VARIANTS = {"fully_connected_s16": ("per_tensor", "batched"),
            "fully_connected_s4": ("per_tensor", "batched", "odd_weights")}
MAC_BUDGET = 12_000


def random_case(family, variant, size, rng):
    """An int16 or int4-weight fully connected case (no output_ref)."""
    for _ in range(1000):
        if size == "tiny":
            depth, out = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        elif size == "odd":
            depth, out = int(rng.integers(1, 50)) * 2 + 1, int(rng.choice([3, 5, 7, 9, 11, 13]))
        else:
            depth, out = int(rng.integers(16, 257)), int(rng.integers(8, 41))
        if variant == "odd_weights" and depth * out % 2 == 0:
            continue
        batches = int(rng.integers(2, 4)) if variant == "batched" else 1
        if batches * depth * out <= MAC_BUDGET:
            break
    s16 = family == "fully_connected_s16"
    bias_null = bool(rng.random() < 0.15)
    case = {
        "input_dims": {"n": batches, "h": 1, "w": 1, "c": depth},
        "filter_dims": {"n": depth, "h": 1, "w": 1, "c": out},
        "output_dims": {"n": batches, "h": 1, "w": 1, "c": out},
        "fc_params": {"input_offset": 0 if s16 else int(rng.integers(-127, 129)),
                      "filter_offset": 0, "output_offset": 0 if s16 else int(rng.integers(-128, 128)),
                      "activation": activation(rng, -32768, 32767) if s16 else activation(rng)},
        "quant_params": {"per_channel": False, "multiplier": int(rng.integers(1 << 30, 1 << 31)),
                         "shift": out_shift(rng, depth)},
        "bias_is_null": bias_null,
        "input": ints(rng, -16384, 16383, batches * depth) if s16 else ints(rng, -128, 127, batches * depth),
    }
    if s16:
        case["weights"] = ints(rng, -127, 127, depth * out)
        case["bias"] = [0] * out if bias_null else ints(rng, -100000, 100000, out)
        case["dtype"] = {"input": "int16", "weights": "int8", "bias": "int64", "output": "int16"}
    else:
        case["weights"] = ints(rng, -7, 7, depth * out)
        case["weights_packed_int4"] = pack_int4(case["weights"])
        case["bias"] = [0] * out if bias_null else ints(rng, -5000, 5000, out)
        case["dtype"] = {"input": "int8", "weights": "int4", "bias": "int32", "output": "int8"}
    return case


def shape_tag(case):
    return f"b{case['input_dims']['n']}_{case['filter_dims']['n']}x{case['output_dims']['c']}"


# --- TFLM reference kernels (ref_O2) ----------------------------------------------------------
REF_FAMILIES = FAMILIES


def ref_harness(case):
    """TFLM's FULLY_CONNECTED Eval (micro/kernels/fully_connected.cc): int16 input ->
    reference_integer_ops::FullyConnected<int16, int8, int16, int64>; int4 filter -> unpacked
    into a scratch buffer, then FullyConnected<int8...>.  2-D tensors as for int8."""
    need(case, "input_dims", "filter_dims", "output_dims", "fc_params", "quant_params",
         "input", "weights", "bias")
    s16 = case["family"] == "fully_connected_s16"
    t = "int16" if s16 else "int8"
    p, q = case["fc_params"], case["quant_params"]
    batches, depth, out = case["input_dims"]["n"], case["filter_dims"]["n"], case["output_dims"]["c"]
    bias_t = dtype_of(case, "bias", "int64" if s16 else "int32")
    weights = case["weights"] if s16 else packed_weights(case, depth * out)
    decls = [array("input", t, case["input"]), array("weights", "int8", weights),
             array("bias", bias_t, case["bias"]), buffer("output", t, batches * out)]
    op_data = ("tflite::OpDataFullyConnected", [
        f"    op_data.input_zero_point = {-p['input_offset']};\n",
        f"    op_data.filter_zero_point = {-p['filter_offset']};\n",
        f"    op_data.output_zero_point = {p['output_offset']};\n",
        f"    op_data.output_activation_min = {p['activation']['min']};\n",
        f"    op_data.output_activation_max = {p['activation']['max']};\n",
        "    op_data.is_per_channel = false;\n", "    op_data.filter_buffer_index = 0;\n",
        f"    op_data.output_multiplier = {q['multiplier']};\n",
        f"    op_data.output_shift = {q['shift']};\n"])
    tensors = [EvalTensor("input", t, [batches, depth]),
               EvalTensor("weights", "int8" if s16 else "int4", [out, depth]),
               EvalTensor("bias", bias_t, [out]), EvalTensor("output", t, [batches, out])]
    builtin = ("TfLiteFullyConnectedParams", [
        "    builtin.activation = kTfLiteActNone;\n",
        "    builtin.weights_format = kTfLiteFullyConnectedWeightsFormatDefault;\n",
        f"    builtin.quantized_bias_type = {TFLM_TYPES[bias_t]};\n"])
    return tflm_op_harness(case, "tflite::Register_FULLY_CONNECTED()",
                           [TFLM_KERNELS + "fully_connected.h"], decls, tensors,
                           [0, 1, -1 if case.get("bias_is_null") else 2], [3], op_data, builtin,
                           [Output("output", t, batches * out)],
                           scratch_sizes=[] if s16 else [depth * out])
