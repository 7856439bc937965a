"""int8 fully connected: arm_fully_connected_s8 (per tensor), arm_fully_connected_per_channel_s8,
both also through arm_fully_connected_wrapper_s8."""
from ..cgen import (EvalTensor, Output, act, array, buffer, cmsis_harness, dims, need, scratch,
                    tflm_op_harness)
from ._common import TFLM_KERNELS, activation, also_of, bias_ref, ints, out_shift, per_channel

FAMILIES = ("fully_connected",)


def harness(case, function=None, also=None):
    need(case, "input_dims", "filter_dims", "output_dims", "fc_params", "quant_params",
         "input", "weights", "bias")
    per_channel = bool(case["quant_params"]["per_channel"])
    default = "arm_fully_connected_per_channel_s8" if per_channel else "arm_fully_connected_s8"
    entry = function or case.get("function") or default
    p = case["fc_params"]
    out_c = case["output_dims"]["c"]
    n_out = case["input_dims"]["n"] * out_c
    decls = [
        array("input", "int8", case["input"]),
        array("weights", "int8", case["weights"]),
        array("bias", "int32", case["bias"]),
        buffer("output", "int8", n_out),
        f"static const cmsis_nn_dims input_dims = {dims(case['input_dims'])};\n",
        f"static const cmsis_nn_dims filter_dims = {dims(case['filter_dims'])};\n",
        f"static const cmsis_nn_dims bias_dims = {{1, 1, 1, {out_c}}};\n",
        f"static const cmsis_nn_dims output_dims = {dims(case['output_dims'])};\n",
        f"static const cmsis_nn_fc_params fc_params = {{{p['input_offset']}, {p['filter_offset']}, "
        f"{p['output_offset']}, {act(p['activation'])}}};\n",
    ]
    q = case["quant_params"]
    if per_channel:
        decls += [array("output_mult", "int32", case["output_mult"], const=False),
                  array("output_shift", "int32", case["output_shift"], const=False),
                  "static const cmsis_nn_per_channel_quant_params channel_quant = "
                  "{output_mult, output_shift};\n",
                  "static const cmsis_nn_quant_params wrapper_quant = {output_mult, output_shift, 1};\n"]
        own = ("arm_fully_connected_per_channel_s8", "&channel_quant")
    else:
        decls += [f"static const cmsis_nn_per_tensor_quant_params tensor_quant = "
                  f"{{{q['multiplier']}, {q['shift']}}};\n",
                  f"static int32_t tensor_mult = {q['multiplier']};\n",
                  f"static int32_t tensor_shift = {q['shift']};\n",
                  "static const cmsis_nn_quant_params wrapper_quant = {&tensor_mult, &tensor_shift, 0};\n"]
        own = ("arm_fully_connected_s8", "&tensor_quant")
    size = scratch("arm_fully_connected_s8_get_buffer_size(&filter_dims)")
    tail = f"&input_dims, input, &filter_dims, weights, &bias_dims, {bias_ref(case)}, &output_dims, {{out}})"
    calls = {own[0]: (size, f"{own[0]}(&ctx, &fc_params, {own[1]}, " + tail),
             "arm_fully_connected_wrapper_s8":
                 (size, "arm_fully_connected_wrapper_s8(&ctx, &fc_params, &wrapper_quant, " + tail)}
    return cmsis_harness(case, entry, decls, calls, [Output("output", "int8", n_out)],
                         also_of(case, entry, calls, also))


# --- random cases -----------------------------------------------------------------------------
# per-tensor (batch 1 and batched), per-channel, a non-zero filter offset (the kernel's
# rhs_offset branch) and the wrapper's per-tensor dispatch
VARIANTS = {"fully_connected": ("per_tensor", "batched", "per_channel", "filter_offset",
                                "wrapper")}
MAC_BUDGET = 16_000
_ENTRY = {"per_channel": "arm_fully_connected_per_channel_s8",
          "wrapper": "arm_fully_connected_wrapper_s8"}


def random_case(family, variant, size, rng):
    """A fully connected case in the vectors' schema (no output_ref); `function` is set."""
    for _ in range(1000):
        if size == "tiny":
            depth, out = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        elif size == "odd":
            depth, out = int(rng.integers(1, 50)) * 2 + 1, int(rng.choice([3, 5, 7, 9, 11, 13]))
        else:
            depth, out = int(rng.integers(16, 301)), int(rng.integers(8, 49))
        batches = int(rng.integers(2, 4)) if variant == "batched" else 1
        if batches * depth * out <= MAC_BUDGET:
            break
    per_ch = variant == "per_channel"
    bias_null = bool(rng.random() < 0.15)
    case = {
        "function": _ENTRY.get(variant, "arm_fully_connected_s8"),
        "input_dims": {"n": batches, "h": 1, "w": 1, "c": depth},
        "filter_dims": {"n": depth, "h": 1, "w": 1, "c": out},
        "output_dims": {"n": batches, "h": 1, "w": 1, "c": out},
        "fc_params": {"input_offset": int(rng.integers(-127, 129)),
                      "filter_offset": int(rng.integers(-127, 128)) if variant == "filter_offset" else 0,
                      "output_offset": int(rng.integers(-128, 128)), "activation": activation(rng)},
        "quant_params": {"per_channel": per_ch},
        "bias_is_null": bias_null,
        "input": ints(rng, -128, 127, batches * depth),
        "weights": ints(rng, -127, 127, depth * out),
        "bias": [0] * out if bias_null else ints(rng, -5000, 5000, out),
    }
    if per_ch:
        case["output_mult"], case["output_shift"] = per_channel(rng, out, depth)
    else:
        case["quant_params"].update(multiplier=int(rng.integers(1 << 30, 1 << 31)),
                                    shift=out_shift(rng, depth))
    return case


def shape_tag(case):
    return f"b{case['input_dims']['n']}_{case['filter_dims']['n']}x{case['output_dims']['c']}"


# --- TFLM reference kernel (ref_O2) -----------------------------------------------------------


REF_FAMILIES = ("fully_connected",)


def ref_harness(case):
    """TFLM's FULLY_CONNECTED Eval (micro/kernels/fully_connected.cc) on the case: 2-D tensors
    input {batches, depth}, filter {out, depth}, bias {out}, output {batches, out}; it calls
    reference_integer_ops::FullyConnected (per tensor) or FullyConnectedPerChannel."""
    need(case, "input_dims", "filter_dims", "output_dims", "fc_params", "quant_params",
         "input", "weights", "bias")
    per_ch = bool(case["quant_params"]["per_channel"])
    p, q = case["fc_params"], case["quant_params"]
    batches, depth, out = case["input_dims"]["n"], case["filter_dims"]["n"], case["output_dims"]["c"]
    decls = [array("input", "int8", case["input"]), array("weights", "int8", case["weights"]),
             array("bias", "int32", case["bias"]), buffer("output", "int8", batches * out)]
    data = [f"    op_data.input_zero_point = {-p['input_offset']};\n",
            f"    op_data.filter_zero_point = {-p['filter_offset']};\n",
            f"    op_data.output_zero_point = {p['output_offset']};\n",
            f"    op_data.output_activation_min = {p['activation']['min']};\n",
            f"    op_data.output_activation_max = {p['activation']['max']};\n",
            f"    op_data.is_per_channel = {'true' if per_ch else 'false'};\n"]
    if per_ch:
        decls += [array("output_mult", "int32", case["output_mult"], const=False),
                  array("output_shift", "int32", case["output_shift"], const=False)]
        data += ["    op_data.per_channel_output_multiplier = output_mult;\n",
                 "    op_data.per_channel_output_shift = output_shift;\n"]
    else:
        data += [f"    op_data.output_multiplier = {q['multiplier']};\n",
                 f"    op_data.output_shift = {q['shift']};\n"]
    tensors = [EvalTensor("input", "int8", [batches, depth]),
               EvalTensor("weights", "int8", [out, depth]),
               EvalTensor("bias", "int32", [out]),
               EvalTensor("output", "int8", [batches, out])]
    builtin = ("TfLiteFullyConnectedParams", [
        "    builtin.activation = kTfLiteActNone;\n",
        "    builtin.weights_format = kTfLiteFullyConnectedWeightsFormatDefault;\n",
        "    builtin.quantized_bias_type = kTfLiteInt32;\n"])
    return tflm_op_harness(case, "tflite::Register_FULLY_CONNECTED()",
                           [TFLM_KERNELS + "fully_connected.h"], decls, tensors,
                           [0, 1, -1 if case.get("bias_is_null") else 2], [3],
                           ("tflite::OpDataFullyConnected", data), builtin,
                           [Output("output", "int8", batches * out)])
