"""UNIDIRECTIONAL_SEQUENCE_LSTM 16x8 (int16 activations, int8 weights, int64 bias, int16 cell
state): arm_lstm_unidirectional_s16 and its callees against CMSIS-NN's lstm_*_s16 vectors,
the numpy oracle, and TFLM's reference EvalLstm<int16_t, int8_t, int16_t, int64_t> port;
test-built 16x8 models (batch / time major, batches, zero points, cell clips, a gate
multiplier above one) against TFLM's Python interpreter on all three paths.
(tests/kernels/test_oracle.py, test_reference_path.py, test_trace_equivalence.py and
test_failed_it.py pick the vectors up from ../shared too.)"""
import collections
import copy
import json

import numpy as np
import pytest
from conftest import VECTORS, shared_cases
from model_helpers import tflm_reference

from armsim.pipeline import arena, model, prepare, profiler
from armsim.data import modelgen
from armsim.cpu.kernel import Tracer
from armsim.kernels import oracle_lstm
from armsim.pipeline.harness import run_case
from armsim.errors import ModelError
from armsim.pipeline.build import Build

FILES = shared_cases(VECTORS, "lstm_s16")
PATHS = ("simd", "scalar", "reference")
CHAINS = {"simd": "arm_lstm_unidirectional_s16", "scalar": "arm_lstm_unidirectional_s16",
          "reference": "tflite::EvalLstm<short, signed char, short, long long>"}


def _load(path):
    return json.loads(path.read_text())


def test_the_directory_holds_three_s16_cases():
    assert [p.stem for p in FILES] == ["lstm_1_s16", "lstm_2_s16",
                                       "lstm_stateful_batch_major_multibatch_s16"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("file", FILES, ids=lambda p: p.stem)
def test_output_is_the_unit_tests(file, path):
    """Time major and batch major, NULL and given (zero) hidden state, one and two batches."""
    case = _load(file)
    result = run_case(case, Build(path))
    assert result.kernel_path[0] == CHAINS[path]
    assert result.output.dtype == np.int16
    np.testing.assert_array_equal(result.output, np.asarray(case["output_ref"], np.int16))


@pytest.mark.parametrize("file", FILES, ids=lambda p: p.stem)
def test_oracle_is_the_unit_tests(file):
    case = _load(file)
    np.testing.assert_array_equal(oracle_lstm.lstm_s16(case),
                                  np.asarray(case["output_ref"], np.int16))


#: ../shared/reference has no lstm_s16 case; these totals were measured the way its README
#: describes (no IT-failed slots): CMSIS-NN 99f736a's arm_lstm_unidirectional_s16 and callees
#: compiled by arm-none-eabi-gcc 12.2 -O2 (-mcpu=cortex-m4 for simd, cortex-m3 for scalar,
#: -mthumb -mfloat-abi=soft -ffunction-sections -fdata-sections -std=gnu11, full newlib
#: memcpy / memset, --gc-sections), the vector's data as static arrays, the API call executed
#: in Unicorn 2.1.4 (Cortex-M4 / M3 models) with a code hook counting every instruction;
#: each run wrote output_ref.  armsim's transcription executes the same totals, and the same
#: count of every mnemonic but four it issues differently: SMLALBB as SMLAL (no SMLALBB op),
#: the gate's LDRB of activation_type as LDR, the context copy's LDM / STM as LDR / STR.
MEASURED = {"lstm_1_s16": {"simd": 117939, "scalar": 135466},
            "lstm_2_s16": {"simd": 60887, "scalar": 56498},
            "lstm_stateful_batch_major_multibatch_s16": {"simd": 28367, "scalar": 26311}}


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", FILES, ids=lambda p: p.stem)
def test_counts_against_the_executed_compiled_kernel(file, path):
    measured = MEASURED[file.stem][path]
    assert run_case(_load(file), Build(path)).instructions == measured


def test_oracle_is_sensitive():
    """A wrong parameter changes the oracle's output: the comparison can fail."""
    case = _load(VECTORS / "lstm_1_s16.json")
    for mutate in (lambda p: p.__setitem__("cell_scale_power", p["cell_scale_power"] + 1),
                   lambda p: p["output_gate"].__setitem__("hidden_shift", -7),
                   lambda p: p["cell_gate"].__setitem__("input_multiplier", 2**30)):
        bad = copy.deepcopy(case)
        mutate(bad["lstm_params"])
        assert not np.array_equal(oracle_lstm.lstm_s16(bad),
                                  np.asarray(case["output_ref"], np.int16))


def test_simd_uses_the_dsp_instructions_and_scalar_none():
    case = _load(VECTORS / "lstm_2_s16.json")
    simd, scalar = run_case(case, Build("simd")).counts(), run_case(case, Build("scalar")).counts()
    for mnemonic in ("smlad", "sxtb16", "pkhbt", "pkhtb", "smulbb", "smultt"):
        assert simd.get(mnemonic, 0) > 0 and scalar.get(mnemonic, 0) == 0, mnemonic


@pytest.mark.parametrize("path", PATHS)
def test_nonzero_offsets_and_a_clip_follow_the_oracle(path):
    """Zero points and a cell clip the vectors leave at 0 / 32767: an input offset (folded
    into the int64 effective bias), an output offset, a tight cell clip, a positive gate
    shift (multiplier above one) and a hidden state given (not NULL)."""
    case = copy.deepcopy(_load(VECTORS / "lstm_stateful_batch_major_multibatch_s16.json"))
    p = case["lstm_params"]
    p.update(input_offset=7, output_offset=-3, cell_clip=3000)
    p["input_gate"]["input_shift"] = 1
    n = p["batch_size"] * p["hidden_size"]
    case["hidden_state_init"] = [(-1) ** k * 100 * k for k in range(n)]
    want = oracle_lstm.lstm_s16(case)
    assert not np.array_equal(want, np.asarray(case["output_ref"], np.int16))
    np.testing.assert_array_equal(run_case(case, Build(path)).output, want)


@pytest.mark.parametrize("path", PATHS)
def test_state_carries_between_steps(path):
    """Cutting the case after its first time step gives the first step's output; the second
    step's input from a fresh start does not give the second step's output (recurrence)."""
    case = _load(VECTORS / "lstm_1_s16.json")
    p = case["lstm_params"]
    first = copy.deepcopy(case)
    first["lstm_params"]["time_steps"] = 1
    step = p["batch_size"] * p["input_size"]
    first["input"] = case["input"][:step]
    np.testing.assert_array_equal(run_case(first, Build(path)).output,
                                  np.asarray(case["output_ref"][:p["hidden_size"]], np.int16))
    restart = copy.deepcopy(first)
    restart["input"] = case["input"][step:2 * step]
    assert not np.array_equal(run_case(restart, Build(path)).output,
                              np.asarray(case["output_ref"][p["hidden_size"]:
                                                            2 * p["hidden_size"]], np.int16))


# --- 16x8 models built with armsim.data.modelgen, against TFLM's Python interpreter -----------

#: name -> (input shape, units, builder options, input zero point); batch major unless
#: time_major
MODELS = {
    "b1_t6_f12_h16": ((1, 6, 12), 16, {}, 0),
    "b2_t4_f8_h12_batch_major": ((2, 4, 8), 12, {}, 0),
    "t5_b2_f10_h8_time_major": ((5, 2, 10), 8, {"time_major": True}, 0),
    "input_zero_point": ((1, 5, 7), 9, {}, -25),
    "no_cell_clip_q4_11": ((1, 4, 16), 10, {"cell_clip": 0.0, "cell_scale_power": -12}, 0),
    "tight_cell_clip": ((1, 6, 6), 5, {"cell_clip": 1.0, "cell_scale_power": -10}, 0),
    "one_feature_positive_gate_shift": ((1, 5, 1), 3, {}, 0),   # input multiplier > 1
}


def _lstm_model(shape, units, zero_point=0, seed=0, **options):
    g = modelgen.Graph(seed=seed)
    x = g.input(shape, scale=1 / 4096, zero_point=zero_point, dtype="int16", name="x")
    g.output(g.unidirectional_sequence_lstm(x, units, name="lstm", **options))
    data = g.build()
    return data, model.parse(data, "lstm16.tflite")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_bit_exact_vs_tflite_micro(name):
    shape, units, options, zero_point = MODELS[name]
    data, m = _lstm_model(shape, units, zero_point, **options)
    (x,) = profiler.random_inputs(m, seed=5)
    want = tflm_reference(data, x)
    assert want.dtype == np.int16
    assert len(np.unique(want)) > 8, "outputs on the clamp: the comparison would be weak"
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=[x])
        assert np.array_equal(prof.outputs[0], want), (name, path)
        assert prof.ops[0].kernel.split(" > ")[0] == CHAINS[path]


def test_a_hidden_zero_point_steps_as_each_tflm_kernel_treats_it():
    """An int16 output state with a non-zero zero point: TFLM resets an int16 variable tensor
    to raw 0 (ResetVariableTensors applies the zero point to INT8 only), so its reference
    kernel's first recurrent input is -zero_point x scale (the reference path equals the
    interpreter); its CMSIS-NN kernel gets no hidden state (NULL: no recurrent term in the
    first step; the simd and scalar paths equal the numpy oracle of that case, and differ
    from the reference)."""
    data, m = _lstm_model((1, 5, 7), 9, out_zero_point=40)
    (step,) = prepare.prepare(m)
    (x,) = profiler.random_inputs(m, seed=5)
    want = tflm_reference(data, x)
    assert np.array_equal(profiler.run(m, Build("reference"), inputs=[x]).outputs[0], want)
    cmsis = oracle_lstm.lstm_s16(dict(step.case, input=x.ravel())).reshape(want.shape)
    assert not np.array_equal(cmsis, want)
    for path in ("simd", "scalar"):
        assert np.array_equal(profiler.run(m, Build(path), inputs=[x]).outputs[0], cmsis), path


def test_prepare_builds_the_s16_case():
    """The 16x8 case: family lstm_s16, int64 biases, int64 kernel sums (eight persistent
    buffers of units int64), the multipliers as the int8 LSTM's Prepare computes them."""
    _, m = _lstm_model((1, 3, 4), 2, zero_point=5, out_zero_point=-2, cell_clip=3.0,
                       cell_scale_power=-11)
    (step,) = prepare.prepare(m)
    assert step.family == step.case["family"] == "lstm_s16"
    assert step.cmsis_persistent_bytes == 8 * 8 * 2
    assert step.cmsis_function == "arm_lstm_unidirectional_s16"
    p = step.case["lstm_params"]
    assert (p["input_offset"], p["output_offset"], p["cell_clip"]) == (-5, -2, 6144)
    assert (p["forget_to_cell_multiplier"], p["forget_to_cell_shift"]) == (2**30, -14)
    assert step.case["forget_gate_bias"].dtype == np.int64


def _edited(mutate):
    g = modelgen.Graph(seed=1)
    x = g.input((1, 3, 4), scale=1 / 4096, zero_point=0, dtype="int16")
    g.output(g.unidirectional_sequence_lstm(x, 3, name="lstm"))
    mutate(g)
    return model.parse(g.build(), "lstm16.tflite")


def test_prepare_refuses_a_bad_16x8_combination():
    def int32_bias(g):
        for i in range(12, 16):
            t = g.tensors[g.ops[-1].inputs[i]]
            t.dtype, t.data = "int32", t.data.astype(np.int32)
    with pytest.raises(ModelError, match=r"lstm16.tflite: .*bias .* is INT32; the 16x8 LSTM "
                                         r"takes int64"):
        prepare.prepare(_edited(int32_bias))

    def int8_output_state(g):
        g.tensors[g.ops[-1].inputs[18]].dtype = "int8"
    with pytest.raises(ModelError, match=r"output state .* is INT8, the input is INT16"):
        prepare.prepare(_edited(int8_output_state))


def test_arena_holds_int16_state_and_int64_kernel_sums():
    _, m = _lstm_model((2, 4, 8), 12)
    (step,) = prepare.prepare(m)
    for build, n in (("simd", 3), ("reference", 4)):
        plan = arena.plan(m, [step], Build(build))
        scratch = [b.size for b in plan.buffers if b.kind == "scratch"]
        assert scratch == [2 * 2 * 12] * n, build
        assert plan.tail_parts["variables"] == 2 * arena.align(2 * 2 * 12)
    cmsis = arena.plan(m, [step], Build("simd")).tail_parts["op_data"]
    ref = arena.plan(m, [step], Build("reference")).tail_parts["op_data"]
    assert cmsis - ref == 220 + 8 * 8 * 12      # cmsis_nn_lstm_params + the int64 kernel sums


#: TFLM 90b983c's reference 16x8 LSTM on lstm_2_s16, executed the same way (lstm_eval.cc,
#: kernel_util.cc, common.cc compiled by gcc 12.2 -O2 -mcpu=cortex-m4 -mfloat-abi=soft
#: -DNDEBUG, EvalLstm<int16_t, int8_t, int16_t, int64_t> called from a harness, Unicorn
#: Cortex-M4): instructions per function, callees not included (StateShape: with InputShape;
#: fcmpgt: libgcc's __aeabi_fcmpgt with __aeabi_cfrcmple / __aeabi_cfcmpeq / __cmpsf2).
#: LstmStep, UpdateLstmCell and EvalLstm are left out: in that harness gcc inlined
#: UpdateLstmCell and EvalLstm differently from unidirectional_sequence_lstm.cc.
REFERENCE_MEASURED = {
    "FullyConnected16x8": 67032, "MultiplyByQuantizedMultiplier64": 14616,
    "MultiplyByQuantizedMultiplier": 5589, "memcpy": 5083, "StateShape": 4617,
    "AddElementWise": 4590, "MulElementwise": 4401, "Sigmoid": 4347, "Tanh": 3712,
    "CalculateLstmGate": 3429, "GetTensorShape": 2628, "Clipping": 747, "aeabi_fcmpgt": 315,
    "UpdateTime": 135, "UpdateBatch": 12}
INLINE_HELPERS = {"max_lt", "min_ge", "_flat_size", "_tail_less_than_4",
                  "_fully_connected_shapes"}


def test_reference_functions_against_the_executed_tflm_kernel():
    tracer = Tracer(limit=1_000_000)
    run_case(_load(VECTORS / "lstm_2_s16.json"), Build("reference"), tracer=tracer)
    owner, per_function = {}, collections.Counter()
    for record in tracer.records:       # an inline helper's instructions are its caller's
        if record.function in INLINE_HELPERS:
            per_function[owner[record.depth - 1]] += 1
        else:
            owner[record.depth] = record.function
            per_function[record.function] += 1
    assert {f: per_function[f] for f in REFERENCE_MEASURED} == REFERENCE_MEASURED
