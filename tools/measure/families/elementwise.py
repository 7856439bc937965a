"""Element-wise add and multiply, int8 and int16 (`input` and `input2` are the two vectors)."""
from ..cgen import Output, array, buffer, cmsis_harness, need, scratch

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
