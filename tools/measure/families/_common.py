"""Helpers shared by the family modules: element types and int4 packing, read the way both
schemas write them (the vectors' `dtypes`, the measured cases' `dtype` / `weights_packed_int4`)."""
import numpy as np

from ..cgen import CaseError

FAMILIES = ()
_DTYPE_FIELDS = {"output_ref": "output", "input2": "input"}


def dtype_of(case, field, default):
    """Element type of an array field: `dtypes[field]`, else the measured schema's `dtype`
    (keys input / weights / bias / output), else `default`."""
    if field in case.get("dtypes", {}):
        return case["dtypes"][field]
    d = case.get("dtype", {})
    return d.get(field, d.get(_DTYPE_FIELDS.get(field, field), default))


def pack_int4(values):
    """Two int4 values per byte, element 2k in the low nibble of byte k (as int8)."""
    out = []
    for k in range(0, len(values), 2):
        lo = int(values[k]) & 0xF
        hi = (int(values[k + 1]) & 0xF) if k + 1 < len(values) else 0
        b = lo | (hi << 4)
        out.append(b - 256 if b > 127 else b)
    return out


def packed_weights(case, count):
    """The int4 weight bytes the kernel reads."""
    if "weights_packed_int4" in case:
        packed = case["weights_packed_int4"]
    elif dtype_of(case, "weights", "int8") == "int4_packed":
        packed = case["weights"]
    else:
        packed = pack_int4(case["weights"])
    if len(packed) != (count + 1) // 2:
        raise CaseError(f"{case.get('case', '?')}: weights: {len(packed)} packed int4 bytes, "
                        f"expected {(count + 1) // 2} for {count} weights")
    return packed


def bias_ref(case):
    return "NULL" if case.get("bias_is_null") else "bias"


def also_of(case, entry, calls, also):
    """The further entry points to validate in the same image: `also` if given, else the
    case's `functions_validated` other than the counted entry (those this family can call)."""
    if also is None:
        also = [f for f in case.get("functions_validated", ()) if f != entry and f in calls]
    return tuple(also)


# --- random cases (tools/measure/random_cases.py): the reference's value ranges ---------------
SIZES = ("tiny", "odd", "medium")


def ints(rng, lo, hi, n):
    """n uniform integers in [lo, hi] as a list."""
    return [int(v) for v in rng.integers(lo, hi + 1, size=n)]


def dim(rng, size, medium_hi):
    """One spatial / channel extent for a size class: tiny 1-3, odd an odd number 3-9,
    medium 4..medium_hi."""
    if size == "tiny":
        return int(rng.integers(1, 4))
    if size == "odd":
        return int(rng.choice([3, 5, 7, 9]))
    return int(rng.integers(4, medium_hi + 1))


def out_shift(rng, depth):
    """An output shift that keeps a depth-`depth` int8 dot product off the clamp most of the
    time (about 6 + log2(depth)/2 bits right), jittered by +-2."""
    base = 6.3 + 0.5 * np.log2(max(depth, 1))
    return int(np.clip(-round(base) + rng.integers(-2, 3), -31, 0))


def per_channel(rng, n, depth):
    """Per-channel multipliers in [2^30, 2^31) and shifts (as the reference draws them)."""
    return ints(rng, 1 << 30, (1 << 31) - 1, n), [out_shift(rng, depth) for _ in range(n)]


def activation(rng, lo=-128, hi=127):
    """Mostly the full range; sometimes a narrowed (ReLU-like) one."""
    if rng.random() < 0.7:
        return {"min": lo, "max": hi}
    a = int(rng.integers(lo, lo + (hi - lo) // 2))
    return {"min": a, "max": int(rng.integers(a + 1, hi + 1))}


def conv_out(extent, kernel, stride, pad, dilation):
    """Output extent with `pad` before (and what SAME-style padding needs after)."""
    eff = (kernel - 1) * dilation + 1
    return (extent + 2 * pad - eff) // stride + 1


# --- TFLM reference kernels (ref_O2: the op's Eval from TFLM's micro/kernels) ----------------
TFLM_KERNELS = "tensorflow/lite/micro/kernels/"


def ref_conv_op_data(p, pad, act_):
    """OpDataConv as TFLM's conv / depthwise Prepare fills it (per-channel int8)."""
    return ("tflite::OpDataConv", [
        f"    op_data.padding.width = {pad['w']};\n",
        f"    op_data.padding.height = {pad['h']};\n",
        f"    op_data.input_zero_point = {-p['input_offset']};\n",
        "    op_data.filter_zero_point = 0;\n",
        f"    op_data.output_zero_point = {p['output_offset']};\n",
        "    op_data.per_channel_output_multiplier = output_mult;\n",
        "    op_data.per_channel_output_shift = output_shift;\n",
        f"    op_data.output_activation_min = {act_['min']};\n",
        f"    op_data.output_activation_max = {act_['max']};\n"])


def ref_padding(case, pad, stride):
    """The op's TfLitePadding (only TFLM's glue reads it: RuntimePaddingType): the case's
    `tflite_padding` if given, else SAME when the output has TFLite's SAME extent
    (ceil(in / stride)) in both dimensions, or any padding is used; VALID otherwise."""
    if "tflite_padding" in case:
        return {"SAME": "kTfLitePaddingSame", "VALID": "kTfLitePaddingValid"}[case["tflite_padding"]]
    i, o = case["input_dims"], case["output_dims"]
    same = all(o[k] == -(-i[k] // stride[k]) for k in ("h", "w"))
    return "kTfLitePaddingSame" if same or pad["w"] or pad["h"] else "kTfLitePaddingValid"
