"""Unidirectional LSTM: arm_lstm_unidirectional_s8 and _s16.

The set-up (uncounted) computes each gate's effective biases as the unit tests do:
input_effective_bias = arm_vector_sum_s8(input weights, lhs_offset = input_offset, + gate
bias), hidden_effective_bias = arm_vector_sum_s8(hidden weights, lhs_offset =
-output_offset) (`_s8_s64` for int16).  temp1, temp2 and cell_state are batch * hidden int16
buffers; the hidden state is NULL unless the case gives `hidden_state_init`."""
from ..cgen import CaseError, Output, array, buffer, cmsis_harness, need
from ._common import dim, ints

FAMILIES = ("lstm", "lstm_s16")
GATES = ("forget", "input", "cell", "output")
_ACT = {"ARM_SIGMOID": "ARM_SIGMOID", "ARM_TANH": "ARM_TANH"}


def harness(case, function=None, also=None):
    need(case, "lstm_params", "input")
    s16 = case["family"] == "lstm_s16"
    entry = "arm_lstm_unidirectional_s16" if s16 else "arm_lstm_unidirectional_s8"
    t = "int16" if s16 else "int8"
    bt = "int64" if s16 else "int32"
    sum_fn = "arm_vector_sum_s8_s64" if s16 else "arm_vector_sum_s8"
    extra = "" if s16 else "0, "   # arm_vector_sum_s8 takes an rhs_offset
    p = case["lstm_params"]
    nb, nt, ni, nh = p["batch_size"], p["time_steps"], p["input_size"], p["hidden_size"]
    n_out = nb * nt * nh
    decls = [array("input", t, case["input"]), buffer("output", t, n_out)]
    setup = ["scratch_used = 0;"]
    gates = {}
    for g in GATES:
        need(case, f"{g}_gate_input_weights", f"{g}_gate_hidden_weights", f"{g}_gate_bias")
        gp = p[f"{g}_gate"]
        if gp["activation_type"] not in _ACT:
            raise CaseError(f"{case['case']}: {g} gate activation {gp['activation_type']!r}")
        decls += [array(f"{g}_in_w", "int8", case[f"{g}_gate_input_weights"]),
                  array(f"{g}_hid_w", "int8", case[f"{g}_gate_hidden_weights"]),
                  array(f"{g}_bias", bt, case[f"{g}_gate_bias"]),
                  buffer(f"{g}_in_eff", bt, nh, align=8), buffer(f"{g}_hid_eff", bt, nh, align=8)]
        setup += [f"{sum_fn}({g}_in_eff, {ni}, {nh}, {g}_in_w, {p['input_offset']}, {extra}{g}_bias);",
                  f"{sum_fn}({g}_hid_eff, {nh}, {nh}, {g}_hid_w, {-p['output_offset']}, {extra}NULL);"]
        gates[g] = (f"{{{gp['input_multiplier']}, {gp['input_shift']}, {g}_in_w, {g}_in_eff, "
                    f"{gp['hidden_multiplier']}, {gp['hidden_shift']}, {g}_hid_w, {g}_hid_eff, "
                    f"{g}_bias, {_ACT[gp['activation_type']]}}}")
    scalars = ", ".join(str(int(p[k])) for k in (
        "time_major", "batch_size", "time_steps", "input_size", "hidden_size", "input_offset",
        "forget_to_cell_multiplier", "forget_to_cell_shift", "input_to_cell_multiplier",
        "input_to_cell_shift", "cell_clip", "cell_scale_power", "output_multiplier",
        "output_shift", "output_offset"))
    decls.append(f"static const cmsis_nn_lstm_params params = {{{scalars}, "
                 + ", ".join(gates[g] for g in GATES) + "};\n")
    decls.append("static cmsis_nn_lstm_context buffers;\n")
    hidden = case.get("hidden_state_init")
    if hidden is not None:
        decls.append(array("hidden_state", t, hidden, const=False))
    words = 2 * nb * nh
    setup += [f"buffers.temp1 = scratch_alloc({words});",
              f"buffers.temp2 = scratch_alloc({words});",
              f"buffers.cell_state = scratch_alloc({words});",
              f"buffers.hidden_state = {'hidden_state' if hidden is not None else 'NULL'};"]
    calls = {entry: ("\n    ".join(setup), f"{entry}(input, {{out}}, &params, &buffers)")}
    return cmsis_harness(case, entry, decls, calls, [Output("output", t, n_out)], ())


# --- random cases -----------------------------------------------------------------------------
# batch 1, several batches time-major and batch-major; gate scales as the reference cases draw
# them (multipliers in [2^30, 2^31), shifts in [-10, -1]), the cell rescales from
# cell_scale_power as TFLite derives them
VARIANTS = {fam: ("one_batch", "batched_time_major", "batched_batch_major") for fam in FAMILIES}
WORK_BUDGET = 16_000     # time x batch x 4 gates x hidden x (input + hidden)


def random_case(family, variant, size, rng):
    """An LSTM case (no output_ref; zero initial state)."""
    s16 = family == "lstm_s16"
    for _ in range(1000):
        nb = 1 if variant == "one_batch" else int(rng.integers(2, 4))
        nt, ni, nh = int(rng.integers(1, 6)), dim(rng, size, 24), dim(rng, size, 24)
        if nt * nb * 4 * nh * (ni + nh) <= WORK_BUDGET:
            break
    csp = int(rng.integers(-15, -9))
    gates = {}
    for g in GATES:
        gates[f"{g}_gate"] = {
            "input_multiplier": int(rng.integers(1 << 30, 1 << 31)),
            "input_shift": int(rng.integers(-10, 0)),
            "hidden_multiplier": int(rng.integers(1 << 30, 1 << 31)),
            "hidden_shift": int(rng.integers(-10, 0)),
            "activation_type": "ARM_TANH" if g == "cell" else "ARM_SIGMOID"}
    params = {"time_major": variant != "batched_batch_major", "batch_size": nb, "time_steps": nt,
              "input_size": ni, "hidden_size": nh,
              "input_offset": 0 if s16 else int(rng.integers(-127, 129)),
              "forget_to_cell_multiplier": 1 << 30, "forget_to_cell_shift": -14,
              "input_to_cell_multiplier": 1 << 30, "input_to_cell_shift": -29 - csp,
              "cell_clip": 32767, "cell_scale_power": csp,
              "output_multiplier": int(rng.integers(1 << 30, 1 << 31)),
              "output_shift": int(rng.integers(-20, -17) if s16 else rng.integers(-23, -20)),
              "output_offset": 0 if s16 else int(rng.integers(-128, 128)), **gates}
    case = {"lstm_params": params, "hidden_state_is_null": True,
            "input": ints(rng, -16384, 16383, nt * nb * ni) if s16 else ints(rng, -128, 127, nt * nb * ni)}
    for g in GATES:
        case[f"{g}_gate_input_weights"] = ints(rng, -127, 127, nh * ni)
        case[f"{g}_gate_hidden_weights"] = ints(rng, -127, 127, nh * nh)
        case[f"{g}_gate_bias"] = ints(rng, -100000, 100000, nh) if s16 else ints(rng, -5000, 5000, nh)
    if s16:
        case["dtype"] = {"input": "int16", "weights": "int8", "bias": "int64", "output": "int16"}
    return case


def shape_tag(case):
    p = case["lstm_params"]
    return f"t{p['time_steps']}_b{p['batch_size']}_i{p['input_size']}_h{p['hidden_size']}"
