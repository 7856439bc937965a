"""Depthwise convolution, int8 / int16 activations and int8 / packed int4 weights: the
wrappers and every kernel they dispatch to, each with its own `*_get_buffer_size`."""
from ..cgen import (EvalTensor, Output, act, array, buffer, cmsis_harness, dims, need, scratch,
                    tflm_op_harness, tile)
from ._common import (TFLM_KERNELS, activation, also_of, bias_ref, conv_out, dim, dtype_of, ints,
                      pack_int4, packed_weights, per_channel, ref_conv_op_data, ref_padding)

FAMILIES = ("depthwise_conv", "depthwise_conv_s16", "depthwise_conv_s4")
WRAPPER = {"depthwise_conv": "arm_depthwise_conv_wrapper_s8",
           "depthwise_conv_s16": "arm_depthwise_conv_wrapper_s16",
           "depthwise_conv_s4": "arm_depthwise_conv_wrapper_s4"}
_WRAPPED_SIZE = "_get_buffer_size(&dw_conv_params, &input_dims, &filter_dims, &output_dims)"
# entry point -> its scratch-size call (None: the kernel takes no scratch)
_SIZE = {
    "depthwise_conv": {
        "arm_depthwise_conv_wrapper_s8": "arm_depthwise_conv_wrapper_s8" + _WRAPPED_SIZE,
        "arm_depthwise_conv_3x3_s8": None,
        "arm_depthwise_conv_s8_opt": "arm_depthwise_conv_s8_opt_get_buffer_size(&input_dims, &filter_dims)",
        "arm_depthwise_conv_s8": None,
    },
    "depthwise_conv_s16": {
        "arm_depthwise_conv_wrapper_s16": "arm_depthwise_conv_wrapper_s16" + _WRAPPED_SIZE,
        "arm_depthwise_conv_fast_s16": "arm_depthwise_conv_fast_s16_get_buffer_size(&input_dims, &filter_dims)",
        "arm_depthwise_conv_s16": None,
    },
    "depthwise_conv_s4": {
        "arm_depthwise_conv_wrapper_s4": "arm_depthwise_conv_wrapper_s4" + _WRAPPED_SIZE,
        "arm_depthwise_conv_s4_opt": "arm_depthwise_conv_s4_opt_get_buffer_size(&input_dims, &filter_dims)",
        "arm_depthwise_conv_s4": None,
    },
}


def harness(case, function=None, also=None):
    need(case, "input_dims", "filter_dims", "output_dims", "dw_conv_params", "input", "weights",
         "bias", "output_mult", "output_shift")
    fam = case["family"]
    entry = function or case.get("function") or WRAPPER[fam]
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["dw_conv_params"]
    act_t = "int16" if fam == "depthwise_conv_s16" else "int8"
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    if fam == "depthwise_conv_s4":
        weights = array("weights", "int8", packed_weights(case, f["h"] * f["w"] * o["c"]))
    else:
        weights = array("weights", "int8", case["weights"])
    bias_t = dtype_of(case, "bias", "int64" if fam == "depthwise_conv_s16" else "int32")
    decls = [
        array("input", act_t, case["input"]), weights, array("bias", bias_t, case["bias"]),
        array("output_mult", "int32", case["output_mult"], const=False),
        array("output_shift", "int32", case["output_shift"], const=False),
        buffer("output", act_t, n_out),
        f"static const cmsis_nn_dims input_dims = {dims(i)};\n",
        f"static const cmsis_nn_dims filter_dims = {dims(f)};\n",
        f"static const cmsis_nn_dims bias_dims = {{1, 1, 1, {o['c']}}};\n",
        f"static const cmsis_nn_dims output_dims = {dims(o)};\n",
        f"static const cmsis_nn_dw_conv_params dw_conv_params = {{{p['input_offset']}, "
        f"{p['output_offset']}, {p['ch_mult']}, {tile(p['stride'])}, {tile(p['padding'])}, "
        f"{tile(p['dilation'])}, {act(p['activation'])}}};\n",
        "static const cmsis_nn_per_channel_quant_params quant_params = {output_mult, output_shift};\n",
    ]
    calls = {name: (scratch(size), f"{name}(&ctx, &dw_conv_params, &quant_params, &input_dims, input, "
                          f"&filter_dims, weights, &bias_dims, {bias_ref(case)}, &output_dims, {{out}})")
             for name, size in _SIZE[fam].items()}
    return cmsis_harness(case, entry, decls, calls, [Output("output", act_t, n_out)],
                         also_of(case, entry, calls, also))


# --- random cases -----------------------------------------------------------------------------
# every branch of arm_depthwise_conv_wrapper_s8 (non-MVE): 3x3 (any stride), opt (ch_mult 1,
# other filters or padding > 1), generic (ch_mult > 1, batches > 1, dilation > 1)
VARIANTS = {"depthwise_conv": ("3x3", "opt", "generic_mult", "generic_batch",
                               "generic_dilation"),
            # s16: arm_depthwise_conv_fast_s16 (ch_mult 1, no dilation; batches allowed) or
            # arm_depthwise_conv_s16
            "depthwise_conv_s16": ("fast", "fast_batch", "generic_mult", "generic_dilation"),
            # s4: arm_depthwise_conv_s4_opt (ch_mult 1, batch 1, no dilation) or _s4
            "depthwise_conv_s4": ("opt", "generic_mult", "generic_batch", "generic_dilation")}
_SHAPE_OF = {"fast": "opt", "fast_batch": "generic_batch"}
MAC_BUDGET = {"3x3": 8_000, "opt": 8_000, "fast": 8_000}   # generic kernels: ~28 instructions a MAC
GENERIC_MAC_BUDGET = 3_500


def dispatch(case):
    """The wrapper's choice on a non-MVE build (vectors README rule for s8; the s16 and s4
    wrappers' conditions)."""
    i, f, p = case["input_dims"], case["filter_dims"], case["dw_conv_params"]
    no_dilation = p["dilation"]["w"] == 1 and p["dilation"]["h"] == 1
    if case["family"] == "depthwise_conv_s16":
        fast = p["ch_mult"] == 1 and no_dilation and f["w"] * f["h"] < 512
        return "arm_depthwise_conv_fast_s16" if fast else "arm_depthwise_conv_s16"
    if case["family"] == "depthwise_conv_s4":
        opt = p["ch_mult"] == 1 and i["n"] == 1 and no_dilation
        return "arm_depthwise_conv_s4_opt" if opt else "arm_depthwise_conv_s4"
    if p["ch_mult"] == 1 and i["n"] == 1 and no_dilation:
        if f["w"] == 3 and f["h"] == 3 and p["padding"]["h"] <= 1 and p["padding"]["w"] <= 1:
            return "arm_depthwise_conv_3x3_s8"
        return "arm_depthwise_conv_s8_opt"
    return "arm_depthwise_conv_s8"


def _shape(variant, size, rng):
    n, mult = 1, 1
    ih, iw, ic = dim(rng, size, 12), dim(rng, size, 12), dim(rng, size, 24)
    kh, kw = 3, 3
    sh, sw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    ph, pw = int(rng.integers(0, 2)), int(rng.integers(0, 2))
    dh = dw = 1
    if variant == "opt":
        while kh == 3 and kw == 3:
            kh, kw = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        ph, pw = int(rng.integers(0, kh // 2 + 1)), int(rng.integers(0, kw // 2 + 1))
        if rng.random() < 0.25:
            kh = kw = 3
            ph = 2
    elif variant.startswith("generic"):
        kh, kw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        ph, pw = int(rng.integers(0, kh // 2 + 1)), int(rng.integers(0, kw // 2 + 1))
        if variant == "generic_mult":
            mult = int(rng.integers(2, 5))
            ic = max(1, ic // mult)
        elif variant == "generic_batch":
            n = int(rng.integers(2, 4))
        else:
            dh, dw = int(rng.integers(1, 4)), int(rng.integers(2, 4))
            if rng.random() < 0.5:
                dh, dw = dw, dh
    ih = max(ih, (kh - 1) * dh + 1 - 2 * ph)
    iw = max(iw, (kw - 1) * dw + 1 - 2 * pw)
    return n, mult, ih, iw, ic, kh, kw, sh, sw, ph, pw, dh, dw


def random_case(family, variant, size, rng):
    budget = MAC_BUDGET.get(variant, GENERIC_MAC_BUDGET)
    # arm_depthwise_conv_s4 (99f736a) indexes the packed filter wrongly for an odd input channel
    # count (its odd-channel branch): its output then differs from TFLM's, so the generic s4
    # cases get even channel counts
    even = family == "depthwise_conv_s4" and variant.startswith("generic")
    for _ in range(1000):
        n, mult, ih, iw, ic, kh, kw, sh, sw, ph, pw, dh, dw = _shape(
            _SHAPE_OF.get(variant, variant), size, rng)
        ic += ic % 2 if even else 0
        oh, ow, oc = conv_out(ih, kh, sh, ph, dh), conv_out(iw, kw, sw, pw, dw), ic * mult
        if oh >= 1 and ow >= 1 and n * oh * ow * oc * kh * kw <= budget:
            break
    else:
        raise RuntimeError(f"no {variant}/{size} depthwise shape within {budget} MACs")
    m, shift = per_channel(rng, oc, kh * kw)
    bias_null = bool(rng.random() < 0.15)
    case = {
        "input_dims": {"n": n, "h": ih, "w": iw, "c": ic},
        "filter_dims": {"n": 1, "h": kh, "w": kw, "c": oc},
        "output_dims": {"n": n, "h": oh, "w": ow, "c": oc},
        "dw_conv_params": {"input_offset": int(rng.integers(-127, 129)),
                           "output_offset": int(rng.integers(-128, 128)), "ch_mult": mult,
                           "stride": {"h": sh, "w": sw}, "padding": {"h": ph, "w": pw},
                           "dilation": {"h": dh, "w": dw}, "activation": activation(rng)},
        "bias_is_null": bias_null,
        "input": ints(rng, -128, 127, n * ih * iw * ic),
        "weights": ints(rng, -127, 127, kh * kw * oc),
        "bias": [0] * oc if bias_null else ints(rng, -5000, 5000, oc),
        "output_mult": m,
        "output_shift": shift,
    }
    if family == "depthwise_conv_s16":
        case["dw_conv_params"].update(input_offset=0, output_offset=0,
                                      activation=activation(rng, -32768, 32767))
        case["input"] = ints(rng, -16384, 16383, len(case["input"]))
        case["bias"] = [0] * oc if bias_null else ints(rng, -100000, 100000, oc)
        case["dtype"] = {"input": "int16", "weights": "int8", "bias": "int64", "output": "int16"}
    elif family == "depthwise_conv_s4":
        case["weights"] = ints(rng, -7, 7, len(case["weights"]))
        case["weights_packed_int4"] = pack_int4(case["weights"])
        case["dtype"] = {"input": "int8", "weights": "int4", "bias": "int32", "output": "int8"}
    return case


def shape_tag(case):
    i, f, p = case["input_dims"], case["filter_dims"], case["dw_conv_params"]
    t = (f"{i['n']}x{i['h']}x{i['w']}x{i['c']}_k{f['h']}x{f['w']}_m{p['ch_mult']}"
         f"_s{p['stride']['h']}{p['stride']['w']}_p{p['padding']['h']}{p['padding']['w']}")
    if p["dilation"]["h"] > 1 or p["dilation"]["w"] > 1:
        t += f"_d{p['dilation']['h']}{p['dilation']['w']}"
    return t


# --- TFLM reference kernel (ref_O2) -----------------------------------------------------------


REF_FAMILIES = FAMILIES


def ref_harness(case):
    """TFLM's DEPTHWISE_CONV_2D Eval (micro/kernels/depthwise_conv.cc) on the case: filter
    [1, h, w, out_ch]; int8 -> reference_integer_ops::DepthwiseConvPerChannel, int16 input ->
    its int16 overload (int64 bias), int4 filter -> unpacked into a scratch buffer first."""
    fam = case["family"]
    need(case, "input_dims", "filter_dims", "output_dims", "dw_conv_params", "input", "weights",
         "bias", "output_mult", "output_shift")
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["dw_conv_params"]
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    act_t = "int16" if fam == "depthwise_conv_s16" else "int8"
    bias_t = dtype_of(case, "bias", "int64" if fam == "depthwise_conv_s16" else "int32")
    n_weights = f["h"] * f["w"] * o["c"]
    weights = packed_weights(case, n_weights) if fam == "depthwise_conv_s4" else case["weights"]
    decls = [array("input", act_t, case["input"]), array("weights", "int8", weights),
             array("bias", bias_t, case["bias"]),
             array("output_mult", "int32", case["output_mult"], const=False),
             array("output_shift", "int32", case["output_shift"], const=False),
             buffer("output", act_t, n_out)]
    tensors = [EvalTensor("input", act_t, [i["n"], i["h"], i["w"], i["c"]]),
               EvalTensor("weights", "int4" if fam == "depthwise_conv_s4" else "int8",
                          [1, f["h"], f["w"], o["c"]]),
               EvalTensor("bias", bias_t, [o["c"]]),
               EvalTensor("output", act_t, [o["n"], o["h"], o["w"], o["c"]])]
    op_data = ref_conv_op_data(p, p["padding"], p["activation"])
    op_data[1].append("    op_data.filter_buffer_index = 0;\n")
    builtin = ("TfLiteDepthwiseConvParams", [
        f"    builtin.padding = {ref_padding(case, p['padding'], p['stride'])};\n",
        f"    builtin.stride_width = {p['stride']['w']};\n",
        f"    builtin.stride_height = {p['stride']['h']};\n",
        f"    builtin.depth_multiplier = {p['ch_mult']};\n",
        "    builtin.activation = kTfLiteActNone;\n",
        f"    builtin.dilation_width_factor = {p['dilation']['w']};\n",
        f"    builtin.dilation_height_factor = {p['dilation']['h']};\n"])
    return tflm_op_harness(case, "tflite::Register_DEPTHWISE_CONV_2D()",
                           [TFLM_KERNELS + "depthwise_conv.h"], decls, tensors,
                           [0, 1, -1 if case.get("bias_is_null") else 2], [3], op_data, builtin,
                           [Output("output", act_t, n_out)],
                           scratch_sizes=[n_weights] if fam == "depthwise_conv_s4" else [])
