"""Convolution, int8 / int16 activations and int8 / packed int4 weights: the wrappers and every
kernel they dispatch to, each with its own `*_get_buffer_size` for the scratch."""
from ..cgen import (TFLM_TYPES, EvalTensor, Output, act, array, buffer, cmsis_harness, dims,
                    need, scratch, tflm_op_harness, tile)
from ._common import (TFLM_KERNELS, activation, also_of, bias_ref, conv_out, dim, dtype_of, ints,
                      pack_int4, packed_weights, per_channel, ref_conv_op_data, ref_padding)

FAMILIES = ("conv", "conv_s16", "conv_s4")
WRAPPER = {"conv": "arm_convolve_wrapper_s8", "conv_s16": "arm_convolve_wrapper_s16",
           "conv_s4": "arm_convolve_wrapper_s4"}
# entry point -> its scratch-size call (None: the kernel takes no scratch)
_SIZE = {
    "arm_convolve_wrapper_s8": "arm_convolve_wrapper_s8_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
    "arm_convolve_s8": "arm_convolve_s8_get_buffer_size(&input_dims, &filter_dims)",
    "arm_convolve_1x1_s8_fast": "arm_convolve_1x1_s8_fast_get_buffer_size(&input_dims)",
    "arm_convolve_1x1_s8": None,
    "arm_convolve_1_x_n_s8": "arm_convolve_1_x_n_s8_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
    "arm_convolve_wrapper_s16": "arm_convolve_wrapper_s16_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
    "arm_convolve_s16": "arm_convolve_s16_get_buffer_size(&input_dims, &filter_dims)",
    "arm_convolve_wrapper_s4": "arm_convolve_wrapper_s4_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
    "arm_convolve_s4": "arm_convolve_s4_get_buffer_size(&input_dims, &filter_dims)",
    "arm_convolve_1x1_s4_fast": "arm_convolve_1x1_s4_fast_get_buffer_size(&input_dims)",
    "arm_convolve_1x1_s4": None,
    "arm_convolve_1_x_n_s4": "arm_convolve_1_x_n_s4_get_buffer_size(&conv_params, &input_dims, &filter_dims, &output_dims)",
}


def entries(family):
    suffix = {"conv": "_s8", "conv_s16": "_s16", "conv_s4": "_s4"}[family]
    return tuple(e for e in _SIZE if e.endswith(suffix) or e.endswith(suffix + "_fast"))


def harness(case, function=None, also=None):
    need(case, "input_dims", "filter_dims", "output_dims", "conv_params", "input", "weights",
         "bias", "output_mult", "output_shift")
    fam = case["family"]
    entry = function or case.get("function") or WRAPPER[fam]
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["conv_params"]
    act_t = "int16" if fam == "conv_s16" else "int8"
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    if fam == "conv_s4":
        weights = array("weights", "int8", packed_weights(case, o["c"] * f["h"] * f["w"] * f["c"]))
    else:
        weights = array("weights", "int8", case["weights"])
    bias_t = dtype_of(case, "bias", "int64" if fam == "conv_s16" else "int32")
    if fam == "conv_s16" and "bias_is_int32" in case:
        bias_t = "int32" if case["bias_is_int32"] else "int64"
    decls = [
        array("input", act_t, case["input"]), weights, array("bias", bias_t, case["bias"]),
        array("output_mult", "int32", case["output_mult"], const=False),
        array("output_shift", "int32", case["output_shift"], const=False),
        buffer("output", act_t, n_out),
        f"static const cmsis_nn_dims input_dims = {dims(i)};\n",
        f"static const cmsis_nn_dims filter_dims = {dims(f)};\n",
        f"static const cmsis_nn_dims bias_dims = {{1, 1, 1, {o['c']}}};\n",
        f"static const cmsis_nn_dims output_dims = {dims(o)};\n",
        f"static const cmsis_nn_conv_params conv_params = {{{p['input_offset']}, {p['output_offset']}, "
        f"{tile(p['stride'])}, {tile(p['padding'])}, {tile(p['dilation'])}, {act(p['activation'])}}};\n",
        "static const cmsis_nn_per_channel_quant_params quant_params = {output_mult, output_shift};\n",
    ]
    bias = bias_ref(case)
    if fam == "conv_s16":
        decls.append(f"static const cmsis_nn_bias_data bias_data = {{{bias}, "
                     f"{'true' if bias_t == 'int32' else 'false'}}};\n")
        bias = "&bias_data"
    calls = {}
    for name in entries(fam):
        upscale = "NULL, " if name == "arm_convolve_s8" else ""
        calls[name] = (scratch(_SIZE[name]), f"{name}(&ctx, &conv_params, &quant_params, &input_dims, input, "
                       f"&filter_dims, weights, &bias_dims, {bias}, {upscale}&output_dims, {{out}})")
    return cmsis_harness(case, entry, decls, calls, [Output("output", act_t, n_out)],
                         also_of(case, entry, calls, also))


# --- random cases -----------------------------------------------------------------------------
# every dispatch branch of the wrapper (non-MVE): 1x1 fast, 1x1 strided, 1xN, im2col (plain,
# dilated, grouped, batched)
VARIANTS = {"conv": ("1x1_fast", "1x1_strided", "1xn", "im2col", "im2col_dilated", "grouped",
                     "batched"),
            # arm_convolve_wrapper_s16 always calls arm_convolve_s16 (non-MVE): shapes and both
            # bias types
            "conv_s16": ("im2col", "1x1", "im2col_dilated", "batched", "int32_bias"),
            # s4: the s8 wrapper's branches (arm_convolve_even_s4 is MVE only), no groups
            "conv_s4": ("1x1_fast", "1x1_strided", "1xn", "im2col", "im2col_dilated", "batched")}
_SHAPE_OF = {"1x1": "1x1_fast", "int32_bias": "im2col"}
MAC_BUDGET = {"conv": 25_000, "conv_s16": 20_000, "conv_s4": 20_000}


def dispatch(case):
    """The wrapper's choice on a non-MVE build (vectors README rule; s4 the same with _s4
    kernels; s16 always arm_convolve_s16)."""
    if case["family"] == "conv_s16":
        return "arm_convolve_s16"
    t = "s4" if case["family"] == "conv_s4" else "s8"
    i, f, p = case["input_dims"], case["filter_dims"], case["conv_params"]
    one = lambda d: d["h"] == 1 and d["w"] == 1  # noqa: E731
    if (p["padding"]["w"] == 0 and p["padding"]["h"] == 0 and f["w"] == 1 and f["h"] == 1
            and one(p["dilation"]) and f["c"] == i["c"]):
        return f"arm_convolve_1x1_{t}_fast" if one(p["stride"]) else f"arm_convolve_1x1_{t}"
    if (i["h"] == 1 and p["dilation"]["w"] == 1 and f["h"] == 1
            and (p["stride"]["w"] * i["c"]) % 4 == 0 and i["c"] == f["c"]):
        return f"arm_convolve_1_x_n_{t}"
    return f"arm_convolve_{t}"


def _shape(variant, size, rng):
    """(n, groups, in h/w/c, out c, kernel h/w, stride h/w, pad h/w, dilation h/w)."""
    n, groups = 1, 1
    ih, iw = dim(rng, size, 12), dim(rng, size, 12)
    ic, oc = dim(rng, size, 24), dim(rng, size, 24)
    kh = kw = 1
    sh = sw = 1
    ph = pw = 0
    dh = dw = 1
    if variant == "1x1_strided":
        sh, sw = int(rng.integers(1, 4)), int(rng.integers(2, 4))
        if rng.random() < 0.5:
            sh, sw = sw, sh
    elif variant == "1xn":
        ih, kw = 1, int(rng.integers(1, 6))
        sw = int(rng.integers(1, 3))
        ic = int(rng.choice([c for c in range(1, 41) if (sw * c) % 4 == 0 and (size != "tiny" or c <= 4)]))
        pw = int(rng.integers(0, kw)) if kw > 1 else 1
        iw = max(iw, kw) + (3 if size != "tiny" else 0)
    elif variant in ("im2col", "im2col_dilated", "grouped", "batched"):
        kh, kw = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        if variant == "grouped" or variant == "batched":
            kh, kw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        sh, sw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        ph, pw = int(rng.integers(0, kh // 2 + 1)), int(rng.integers(0, kw // 2 + 1))
        if kh == 1 and kw == 1 and ph == 0 and pw == 0:
            ph = 1
        if variant == "im2col_dilated":
            dh, dw = int(rng.integers(1, 4)), int(rng.integers(2, 4))
        if variant == "grouped":
            groups = int(rng.integers(2, 4))
            ic = groups * max(1, ic // groups)
            oc = groups * max(1, oc // groups)
        if variant == "batched":
            n = int(rng.integers(2, 4))
    ih = max(ih, (kh - 1) * dh + 1 - 2 * ph)
    iw = max(iw, (kw - 1) * dw + 1 - 2 * pw)
    return n, groups, ih, iw, ic, oc, kh, kw, sh, sw, ph, pw, dh, dw


def random_case(family, variant, size, rng):
    """A conv case in the vectors' schema (arrays and parameters; no output_ref)."""
    for _ in range(1000):
        n, groups, ih, iw, ic, oc, kh, kw, sh, sw, ph, pw, dh, dw = _shape(
            _SHAPE_OF.get(variant, variant), size, rng)
        oh, ow = conv_out(ih, kh, sh, ph, dh), conv_out(iw, kw, sw, pw, dw)
        fc = ic // groups
        macs = n * oh * ow * oc * kh * kw * fc
        if oh >= 1 and ow >= 1 and macs <= MAC_BUDGET[family]:
            break
    else:
        raise RuntimeError(f"no {variant}/{size} conv shape within {MAC_BUDGET[family]} MACs")
    mult, shift = per_channel(rng, oc, kh * kw * fc)
    # never a NULL bias with groups: arm_convolve_s8 (99f736a) advances bias_data_ptr per group
    # even when it is NULL, and the second group then reads a "bias" from address 4 * ch/group
    bias_null = bool(rng.random() < 0.15) and groups == 1
    case = {
        "groups": groups,
        "input_dims": {"n": n, "h": ih, "w": iw, "c": ic},
        "filter_dims": {"n": oc, "h": kh, "w": kw, "c": fc},
        "output_dims": {"n": n, "h": oh, "w": ow, "c": oc},
        "conv_params": {"input_offset": int(rng.integers(-127, 129)),
                        "output_offset": int(rng.integers(-128, 128)),
                        "stride": {"h": sh, "w": sw}, "padding": {"h": ph, "w": pw},
                        "dilation": {"h": dh, "w": dw}, "activation": activation(rng)},
        "bias_is_null": bias_null,
        "input": ints(rng, -128, 127, n * ih * iw * ic),
        "weights": ints(rng, -127, 127, oc * kh * kw * fc),
        "bias": [0] * oc if bias_null else ints(rng, -5000, 5000, oc),
        "output_mult": mult,
        "output_shift": shift,
    }
    if family == "conv_s16":
        int32_bias = variant == "int32_bias"
        case["conv_params"].update(input_offset=0, output_offset=0,
                                   activation=activation(rng, -32768, 32767))
        case["input"] = ints(rng, -16384, 16383, len(case["input"]))
        case["bias"] = [0] * oc if bias_null else (
            ints(rng, -5000, 5000, oc) if int32_bias else ints(rng, -100000, 100000, oc))
        case["bias_is_int32"] = int32_bias
        case["dtype"] = {"input": "int16", "weights": "int8",
                         "bias": "int32" if int32_bias else "int64", "output": "int16"}
    elif family == "conv_s4":
        case["weights"] = ints(rng, -7, 7, len(case["weights"]))
        case["weights_packed_int4"] = pack_int4(case["weights"])
        case["dtype"] = {"input": "int8", "weights": "int4", "bias": "int32", "output": "int8"}
    return case


def shape_tag(case):
    i, f, p = case["input_dims"], case["filter_dims"], case["conv_params"]
    t = (f"{i['n']}x{i['h']}x{i['w']}x{i['c']}_k{f['h']}x{f['w']}_o{f['n']}"
         f"_s{p['stride']['h']}{p['stride']['w']}_p{p['padding']['h']}{p['padding']['w']}")
    if p["dilation"]["h"] > 1 or p["dilation"]["w"] > 1:
        t += f"_d{p['dilation']['h']}{p['dilation']['w']}"
    return t + (f"_g{case['groups']}" if case.get("groups", 1) > 1 else "")


# --- TFLM reference kernel (ref_O2) -----------------------------------------------------------


REF_FAMILIES = FAMILIES


def ref_harness(case):
    """TFLM's CONV_2D Eval (micro/kernels/conv.cc) on the case, per-channel quantization: int8
    input and filter -> reference_integer_ops::ConvPerChannel; int16 input ->
    ConvPerChannel<int64 or int32 accumulator> by the bias type; int4 filter -> unpacked into
    a scratch buffer (tensor_utils::UnpackDenseInt4IntoInt8), then the int8 kernel."""
    fam = case["family"]
    need(case, "input_dims", "filter_dims", "output_dims", "conv_params", "input", "weights",
         "bias", "output_mult", "output_shift")
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["conv_params"]
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    act_t = "int16" if fam == "conv_s16" else "int8"
    bias_t = dtype_of(case, "bias", "int64" if fam == "conv_s16" else "int32")
    if fam == "conv_s16" and "bias_is_int32" in case:
        bias_t = "int32" if case["bias_is_int32"] else "int64"
    n_weights = f["n"] * f["h"] * f["w"] * f["c"]
    weights = packed_weights(case, n_weights) if fam == "conv_s4" else case["weights"]
    decls = [array("input", act_t, case["input"]), array("weights", "int8", weights),
             array("bias", bias_t, case["bias"]),
             array("output_mult", "int32", case["output_mult"], const=False),
             array("output_shift", "int32", case["output_shift"], const=False),
             buffer("output", act_t, n_out)]
    tensors = [EvalTensor("input", act_t, [i["n"], i["h"], i["w"], i["c"]]),
               EvalTensor("weights", "int4" if fam == "conv_s4" else "int8",
                          [f["n"], f["h"], f["w"], f["c"]]),
               EvalTensor("bias", bias_t, [o["c"]]),
               EvalTensor("output", act_t, [o["n"], o["h"], o["w"], o["c"]])]
    op_data = ref_conv_op_data(p, p["padding"], p["activation"])
    op_data[1].append("    op_data.filter_buffer_index = 0;\n")
    builtin = ("TfLiteConvParams", [
        f"    builtin.padding = {ref_padding(case, p['padding'], p['stride'])};\n",
        f"    builtin.stride_width = {p['stride']['w']};\n",
        f"    builtin.stride_height = {p['stride']['h']};\n",
        "    builtin.activation = kTfLiteActNone;\n",
        f"    builtin.dilation_width_factor = {p['dilation']['w']};\n",
        f"    builtin.dilation_height_factor = {p['dilation']['h']};\n",
        f"    builtin.quantized_bias_type = {TFLM_TYPES[bias_t]};\n"])
    return tflm_op_harness(case, "tflite::Register_CONV_2D()", [TFLM_KERNELS + "conv.h"], decls,
                           tensors, [0, 1, -1 if case.get("bias_is_null") else 2], [3], op_data,
                           builtin, [Output("output", act_t, n_out)],
                           scratch_sizes=[n_weights] if fam == "conv_s4" else [])
