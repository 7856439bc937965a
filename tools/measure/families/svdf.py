"""SVDF: arm_svdf_s8 (int8 state and time weights) and arm_svdf_state_s16_s8 (int16).

The state is updated in place and read back as `state_ref`.  input_ctx / output_ctx get
batches * feature_batches and batches * units int32 words, as the unit tests allocate them;
ctx (arm_svdf_s8 only) gets `arm_svdf_s8_get_buffer_size`.  A case with `num_steps` calls the
kernel once per input block in the one counted run (the unit tests' sequence); the counts
cover all the calls and `output_ref` is the last one's."""
from ..cgen import CaseError, EvalTensor, Output, act, array, buffer, cmsis_harness, need, tflm_op_harness
from ._common import TFLM_KERNELS, activation, dim, ints, out_shift

FAMILIES = ("svdf", "svdf_state_s16")


def _dims(case, key, default):
    d = dict(default)
    d.update(case.get(key, {}))
    return "{%d, %d, %d, %d}" % (d["n"], d["h"], d["w"], d["c"])


def harness(case, function=None, also=None):
    need(case, "svdf_params", "input_quant_params", "output_quant_params", "input_dims",
         "weights_feature_dims", "weights_time_dims", "input", "state", "weights_feature",
         "weights_time", "bias")
    s16 = case["family"] == "svdf_state_s16"
    entry = "arm_svdf_state_s16_s8" if s16 else "arm_svdf_s8"
    st = "int16" if s16 else "int8"
    p, qi, qo = case["svdf_params"], case["input_quant_params"], case["output_quant_params"]
    batches, in_size = case["input_dims"]["n"], case["input_dims"]["h"]
    features, time = case["weights_feature_dims"]["n"], case["weights_time_dims"]["h"]
    if features % p["rank"]:
        raise CaseError(f"{case['case']}: {features} feature batches not divisible by rank {p['rank']}")
    units = features // p["rank"]
    steps = int(case.get("num_steps", 1))
    if len(case["input"]) != steps * batches * in_size:
        raise CaseError(f"{case['case']}: input: {len(case['input'])} values, expected "
                        f"{steps} steps x {batches} x {in_size}")
    n_out = batches * units
    one = {"n": 1, "h": 1, "w": 1, "c": 1}
    decls = [
        array("input", "int8", case["input"]),
        array("state", st, case["state"], const=False),
        array("weights_feature", "int8", case["weights_feature"]),
        array("weights_time", st, case["weights_time"]),
        array("bias", "int32", case["bias"]),
        buffer("output", "int8", n_out),
        "static cmsis_nn_context input_ctx, output_ctx;\n",
        f"static const cmsis_nn_dims input_dims = {_dims(case, 'input_dims', one)};\n",
        f"static const cmsis_nn_dims state_dims = "
        f"{_dims(case, 'state_dims', {'n': batches, 'h': features, 'w': time, 'c': 1})};\n",
        f"static const cmsis_nn_dims weights_feature_dims = "
        f"{_dims(case, 'weights_feature_dims', {'n': features, 'h': in_size, 'w': 1, 'c': 1})};\n",
        f"static const cmsis_nn_dims weights_time_dims = "
        f"{_dims(case, 'weights_time_dims', {'n': features, 'h': time, 'w': 1, 'c': 1})};\n",
        f"static const cmsis_nn_dims bias_dims = {_dims(case, 'bias_dims', {**one, 'n': units})};\n",
        f"static const cmsis_nn_dims output_dims = "
        f"{_dims(case, 'output_dims', {**one, 'n': batches, 'h': units})};\n",
        f"static const cmsis_nn_svdf_params svdf_params = {{{p['rank']}, {p['input_offset']}, "
        f"{p['output_offset']}, {act(p['input_activation'])}, {act(p['output_activation'])}}};\n",
        f"static const cmsis_nn_per_tensor_quant_params input_quant = {{{qi['multiplier']}, {qi['shift']}}};\n",
        f"static const cmsis_nn_per_tensor_quant_params output_quant = {{{qo['multiplier']}, {qo['shift']}}};\n",
    ]
    ctx_arg = "" if s16 else "&ctx, "
    bias = "NULL" if case.get("bias_is_null") else "bias"
    decls.append(
        "static inline __attribute__((always_inline)) int32_t svdf_steps(int8_t *out)\n{\n"
        "    int32_t status = 0;\n"
        f"    for (int32_t step = 0; step < {steps} && status == 0; step++)\n"
        f"        status = {entry}({ctx_arg}&input_ctx, &output_ctx, &svdf_params, &input_quant, "
        f"&output_quant, &input_dims, input + step * {batches * in_size}, &state_dims, state, "
        f"&weights_feature_dims, weights_feature, &weights_time_dims, weights_time, &bias_dims, "
        f"{bias}, &output_dims, out);\n"
        "    return status;\n}\n")
    size = "0" if s16 else "arm_svdf_s8_get_buffer_size(&weights_feature_dims)"
    setup = (f"set_scratch({size});\n"
             f"    set_context(&input_ctx, {4 * batches * features});\n"
             f"    set_context(&output_ctx, {4 * batches * units});")
    calls = {entry: (setup, "svdf_steps({out})")}
    return cmsis_harness(case, entry, decls, calls,
                         [Output("output", "int8", n_out),
                          Output("state", st, len(case["state"]), field="state_ref")], ())


# --- random cases -----------------------------------------------------------------------------
VARIANTS = {fam: ("rank1", "rank2", "batched", "steps") for fam in FAMILIES}
WORK_BUDGET = 12_000     # batches x features x (input + time)


def random_case(family, variant, size, rng):
    """An SVDF case (the measured schema's dims; no output_ref / state_ref)."""
    s16 = family == "svdf_state_s16"
    for _ in range(1000):
        batches = int(rng.integers(2, 4)) if variant == "batched" else 1
        rank = 2 if variant == "rank2" else 1
        units = dim(rng, size, 24)
        features, in_size, time = rank * units, dim(rng, size, 64), dim(rng, size, 16)
        if batches * features * (in_size + time) <= WORK_BUDGET:
            break
    steps = 2 if variant == "steps" else 1
    st_lo, st_hi = (-32768, 32767) if s16 else (-128, 127)
    state_range = (-16384, 16383) if s16 else (-128, 127)
    case = {
        "input_dims": {"n": batches, "h": in_size, "w": 1, "c": 1},
        "state_dims": {"n": batches, "h": features, "w": time, "c": 1},
        "weights_feature_dims": {"n": features, "h": in_size, "w": 1, "c": 1},
        "weights_time_dims": {"n": features, "h": time, "w": 1, "c": 1},
        "bias_dims": {"n": units, "h": 1, "w": 1, "c": 1},
        "output_dims": {"n": batches, "h": units, "w": 1, "c": 1},
        "svdf_params": {"rank": rank, "input_offset": 0 if s16 else int(rng.integers(-128, 128)),
                        "output_offset": int(rng.integers(-128, 128)),
                        "input_activation": {"min": st_lo, "max": st_hi},
                        "output_activation": activation(rng)},
        "input_quant_params": {"multiplier": int(rng.integers(1 << 30, 1 << 31)),
                               "shift": out_shift(rng, in_size) + (7 if s16 else 0)},
        "output_quant_params": {"multiplier": int(rng.integers(1 << 30, 1 << 31)),
                                "shift": out_shift(rng, time) - (14 if s16 else 0)},
        "bias_is_null": False,
        "input": ints(rng, -128, 127, steps * batches * in_size),
        "state": ints(rng, *state_range, batches * features * time),
        "weights_feature": ints(rng, -127, 127, features * in_size),
        "weights_time": ints(rng, *state_range, features * time),
        "bias": ints(rng, -5000, 5000, units),
    }
    if steps > 1:
        case["num_steps"] = steps
    if s16:
        case["dtype"] = {"input": "int8", "state": "int16", "weights_time": "int16", "output": "int8"}
    return case


def shape_tag(case):
    return (f"b{case['input_dims']['n']}_i{case['input_dims']['h']}_f{case['weights_feature_dims']['n']}"
            f"_t{case['weights_time_dims']['h']}_r{case['svdf_params']['rank']}")


# --- TFLM reference kernels (ref_O2) ----------------------------------------------------------
REF_FAMILIES = FAMILIES


def ref_harness(case):
    """TFLM's SVDF Eval (micro/kernels/svdf.cc) -> EvalIntegerSvdfReference<int8 or int16
    state>: inputs 0 input [batch, input], 1 feature weights, 2 time weights, 3 bias, 4 the
    state (a variable tensor, updated in place); two int32 scratch buffers.  `num_steps`
    invocations in one counted run."""
    s16 = case["family"] == "svdf_state_s16"
    st = "int16" if s16 else "int8"
    p, qi, qo = case["svdf_params"], case["input_quant_params"], case["output_quant_params"]
    batches, in_size = case["input_dims"]["n"], case["input_dims"]["h"]
    features, time = case["weights_feature_dims"]["n"], case["weights_time_dims"]["h"]
    units = features // p["rank"]
    steps = int(case.get("num_steps", 1))
    decls = [array("input", "int8", case["input"]), array("weights_feature", "int8", case["weights_feature"]),
             array("weights_time", st, case["weights_time"]), array("bias", "int32", case["bias"]),
             array("state", st, case["state"], const=False), buffer("output", "int8", batches * units)]
    tensors = [EvalTensor("input", "int8", [batches, in_size]),
               EvalTensor("weights_feature", "int8", [features, in_size]),
               EvalTensor("weights_time", st, [features, time]),
               EvalTensor("bias", "int32", [units]),
               EvalTensor("state", st, [batches, features * time]),
               EvalTensor("output", "int8", [batches, units])]
    op_data = ("tflite::OpDataSvdf", [
        f"    op_data.effective_scale_1_a = {qi['multiplier']};\n",
        f"    op_data.effective_scale_1_b = {qi['shift']};\n",
        f"    op_data.effective_scale_2_a = {qo['multiplier']};\n",
        f"    op_data.effective_scale_2_b = {qo['shift']};\n",
        "    op_data.scratch_tensor_index = 0;\n", "    op_data.scratch_output_tensor_index = 1;\n",
        f"    op_data.input_zero_point = {p['input_offset']};\n",
        f"    op_data.output_zero_point = {p['output_offset']};\n",
        f"    op_data.activation_state_zero_point = {p.get('state_offset', 0)};\n"])
    builtin = ("TfLiteSVDFParams", [f"    builtin.rank = {p['rank']};\n",
                                    "    builtin.activation = kTfLiteActNone;\n"])
    bias = [3] if not case.get("bias_is_null") else [-1]
    return tflm_op_harness(case, "tflite::Register_SVDF()", [TFLM_KERNELS + "svdf.h",
                                                             TFLM_KERNELS + "micro_ops.h"],
                           decls, tensors, [0, 1, 2] + bias + [4], [5], op_data, builtin,
                           [Output("output", "int8", batches * units),
                            Output("state", st, len(case["state"]), field="state_ref")],
                           scratch_sizes=[4 * batches * features, 4 * batches * units],
                           steps=steps, step_stride=batches * in_size)
