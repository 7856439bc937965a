"""Helpers shared by the family modules: element types and int4 packing, read the way both
schemas write them (the vectors' `dtypes`, the measured cases' `dtype` / `weights_packed_int4`)."""
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
