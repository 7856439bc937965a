"""Element-wise add and multiply, int8 and int16 (`input` and `input2` are the two vectors)."""
from ..cgen import Output, array, buffer, cmsis_harness, need, scratch
from ._common import activation, ints

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
