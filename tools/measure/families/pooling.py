"""Average and max pooling, int8 and int16."""
from ..cgen import (EvalTensor, Output, act, array, buffer, cmsis_harness, dims, need, scratch,
                    tflm_op_harness, tile)
from ._common import TFLM_KERNELS, activation, conv_out, dim, ints

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


# --- random cases -----------------------------------------------------------------------------
# VALID and SAME windows, a global pool (the window is the whole input), batches
VARIANTS = {fam: ("valid", "same", "global", "batched") for fam in FAMILIES}
WORK_BUDGET = 6_000      # output elements x window taps


def random_case(family, variant, size, rng):
    """A pooling case in the vectors' schema (no output_ref)."""
    s16 = family.endswith("_s16")
    for _ in range(1000):
        n = int(rng.integers(2, 4)) if variant == "batched" else 1
        ih, iw, c = dim(rng, size, 12), dim(rng, size, 12), dim(rng, size, 24)
        kh, kw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        sh, sw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        ph = pw = 0
        if variant == "same":
            kh, kw = int(rng.integers(2, 5)), int(rng.integers(2, 5))
            sh, sw = int(rng.integers(1, 3)), int(rng.integers(1, 3))
            ph, pw = int(rng.integers(0, (kh - 1) // 2 + 1)), int(rng.integers(0, (kw - 1) // 2 + 1))
        elif variant == "global":
            kh, kw, sh, sw = ih, iw, 1, 1
        if kh > ih + 2 * ph or kw > iw + 2 * pw:
            continue
        oh, ow = conv_out(ih, kh, sh, ph, 1), conv_out(iw, kw, sw, pw, 1)
        if n * oh * ow * c * kh * kw <= WORK_BUDGET:
            break
    lo, hi = (-32768, 32767) if s16 else (-128, 127)
    data_lo, data_hi = (-16384, 16383) if s16 else (-128, 127)
    case = {
        "input_dims": {"n": n, "h": ih, "w": iw, "c": c},
        "filter_dims": {"n": 1, "h": kh, "w": kw, "c": 1},
        "output_dims": {"n": n, "h": oh, "w": ow, "c": c},
        "pool_params": {"stride": {"h": sh, "w": sw}, "padding": {"h": ph, "w": pw},
                        "activation": activation(rng, lo, hi)},
        "tflite_padding": "SAME" if ph or pw else "VALID",
        "input": ints(rng, data_lo, data_hi, n * ih * iw * c),
    }
    if s16:
        case["dtype"] = {"input": "int16", "output": "int16"}
    return case


def shape_tag(case):
    i, f, p = case["input_dims"], case["filter_dims"], case["pool_params"]
    return (f"{i['n']}x{i['h']}x{i['w']}x{i['c']}_k{f['h']}x{f['w']}"
            f"_s{p['stride']['h']}{p['stride']['w']}_p{p['padding']['h']}{p['padding']['w']}")


# --- TFLM reference kernels (ref_O2) ----------------------------------------------------------
REF_FAMILIES = FAMILIES
_REGISTER = {"avgpool": "AVERAGE_POOL_2D", "maxpool": "MAX_POOL_2D"}


def ref_harness(case):
    """TFLM's AVERAGE_POOL_2D / MAX_POOL_2D Eval (micro/kernels/pooling.cc): it calls
    reference_integer_ops::AveragePool / MaxPool (int8, or the int16 templates)."""
    fam = case["family"]
    t = "int16" if fam.endswith("_s16") else "int8"
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["pool_params"]
    n_out = o["n"] * o["h"] * o["w"] * o["c"]
    decls = [array("input", t, case["input"]), buffer("output", t, n_out)]
    tensors = [EvalTensor("input", t, [i["n"], i["h"], i["w"], i["c"]]),
               EvalTensor("output", t, [o["n"], o["h"], o["w"], o["c"]])]
    pad = p["padding"]
    op_data = ("tflite::OpDataPooling", [
        f"    op_data.padding.width = {pad['w']};\n", f"    op_data.padding.height = {pad['h']};\n",
        f"    op_data.activation_min = {p['activation']['min']};\n",
        f"    op_data.activation_max = {p['activation']['max']};\n"])
    same = case.get("tflite_padding", "SAME" if pad["w"] or pad["h"] else "VALID") == "SAME"
    builtin = ("TfLitePoolParams", [
        f"    builtin.padding = {'kTfLitePaddingSame' if same else 'kTfLitePaddingValid'};\n",
        f"    builtin.stride_width = {p['stride']['w']};\n",
        f"    builtin.stride_height = {p['stride']['h']};\n",
        f"    builtin.filter_width = {f['w']};\n", f"    builtin.filter_height = {f['h']};\n",
        "    builtin.activation = kTfLiteActNone;\n"])
    register = f"tflite::Register_{_REGISTER[fam.split('_')[0]]}()"
    return tflm_op_harness(case, register, [TFLM_KERNELS + "pooling.h", TFLM_KERNELS + "micro_ops.h"],
                           decls, tensors, [0], [1], op_data, builtin, [Output("output", t, n_out)])
