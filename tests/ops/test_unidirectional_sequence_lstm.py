"""UNIDIRECTIONAL_SEQUENCE_LSTM (int8, int16 cell state): arm_lstm_unidirectional_s8 against the
CMSIS-NN vectors and the measured counts of ../shared, the numpy oracle, and TFLM's reference
integer LSTM port; test-built models (batch / time major, batches, zero points, cell clips,
a gate multiplier above one) and an LSTM classifier against TFLM's Python interpreter on all
three paths.  (tests/kernels/test_oracle.py, test_reference_path.py, test_trace_equivalence.py,
test_reference_cycles.py and test_failed_it.py pick the cases up from ../shared too.)"""
import copy
import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import REFERENCE, VECTORS, shared_cases
from model_helpers import tflm_reference

from armsim.pipeline import arena, model, prepare, profiler
from armsim.data import modelgen
from armsim.cli.main import main
from armsim.kernels import oracle_lstm
from armsim.pipeline.harness import run_case
from armsim.errors import ModelError
from armsim.pipeline.build import Build

FILES = shared_cases(VECTORS, "lstm") + shared_cases(REFERENCE, "lstm")
MEASURED = shared_cases(REFERENCE, "lstm")
PATHS = ("simd", "scalar", "reference")


def _load(path):
    return json.loads(path.read_text())


def test_the_directories_hold_lstm_cases():
    assert len(shared_cases(VECTORS, "lstm")) == 3 and len(MEASURED) == 2


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("file", FILES, ids=lambda p: p.stem)
def test_output_is_the_unit_tests(file, path):
    """Time major and batch major, NULL and given hidden state, one and two batches."""
    case = _load(file)
    result = run_case(case, Build(path))
    np.testing.assert_array_equal(result.output, np.asarray(case["output_ref"], np.int8))




def test_oracle_is_sensitive():
    """A wrong parameter changes the oracle's output: the comparison can fail."""
    case = _load(VECTORS / "lstm_1.json")
    for mutate in (lambda p: p.__setitem__("cell_scale_power", p["cell_scale_power"] + 1),
                   lambda p: p["output_gate"].__setitem__("hidden_shift", -1),
                   lambda p: p.__setitem__("input_offset", p["input_offset"] - 3)):
        bad = copy.deepcopy(case)
        mutate(bad["lstm_params"])
        assert not np.array_equal(oracle_lstm.lstm(bad), np.asarray(case["output_ref"], np.int8))


def test_activation_matches_the_table_ends():
    """sigmoid(0) = 0.5, tanh(0) = 0, and past the table's end (input shifted left by one:
    |x| >> 9 >= 255) the saturation constants: sigmoid 32767 / 1, tanh +-32767 (Q0.15)."""
    x = np.array([0, 32767, -32768])
    np.testing.assert_array_equal(oracle_lstm.activation_s16(x, 1, True), [16384, 32767, 1])
    np.testing.assert_array_equal(oracle_lstm.activation_s16(x, 1, False), [0, 32767, -32767])


@pytest.mark.parametrize("path", PATHS)
def test_state_carries_between_steps(path):
    """Cutting the case after its first time step gives the first step's output: the later
    steps depend on the recurrence (their outputs differ from a fresh start)."""
    case = _load(VECTORS / "lstm_1.json")
    p = case["lstm_params"]
    first = copy.deepcopy(case)
    first["lstm_params"]["time_steps"] = 1
    step = p["batch_size"] * p["input_size"]
    first["input"] = case["input"][:step]
    out = run_case(first, Build(path)).output
    np.testing.assert_array_equal(out, np.asarray(case["output_ref"][:p["hidden_size"]], np.int8))
    restart = copy.deepcopy(first)
    restart["input"] = case["input"][step:2 * step]
    assert not np.array_equal(run_case(restart, Build(path)).output,
                              np.asarray(case["output_ref"][p["hidden_size"]:
                                                            2 * p["hidden_size"]], np.int8))


# --- models built with armsim.data.modelgen, against TFLM's Python interpreter ----------------

#: name -> (input shape, units, builder options); batch major unless time_major
MODELS = {
    "b1_t6_f12_h16": ((1, 6, 12), 16, {}),
    "b2_t4_f8_h12_batch_major": ((2, 4, 8), 12, {}),
    "t5_b2_f10_h8_time_major": ((5, 2, 10), 8, {"time_major": True}),
    "odd_f7_h9_zero_point": ((1, 5, 7), 9, {"out_zero_point": 5}),
    "no_cell_clip_q4_11": ((1, 4, 16), 10, {"cell_clip": 0.0, "cell_scale_power": -12}),
    "tight_cell_clip": ((1, 6, 6), 5, {"cell_clip": 1.0, "cell_scale_power": -10}),
    "one_feature_positive_gate_shift": ((1, 5, 1), 3, {}),   # input multiplier > 1
}


def _lstm_model(shape, units, seed=0, **options):
    g = modelgen.Graph(seed=seed)
    x = g.input(shape, scale=0.05, zero_point=-3, name="x")
    g.output(g.unidirectional_sequence_lstm(x, units, name="lstm", **options))
    data = g.build()
    return data, model.parse(data, "lstm.tflite")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_bit_exact_vs_tflite_micro(name):
    shape, units, options = MODELS[name]
    data, m = _lstm_model(shape, units, **options)
    (x,) = profiler.random_inputs(m, seed=5)
    want = tflm_reference(data, x)
    assert len(np.unique(want)) > 8, "outputs on the clamp: the comparison would be weak"
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=[x])
        assert np.array_equal(prof.outputs[0], want), (name, path)
        kernel = prof.ops[0].kernel.split(" > ")[0]
        assert kernel == ("arm_lstm_unidirectional_s8" if path != "reference"
                          else "tflite::EvalLstm<signed char, signed char, short, long>")


def test_prepare_derives_the_cmsis_nn_parameters():
    """Multipliers as TFLM's Prepare computes them (float scale products in double), the
    effective biases of CMSIS_NN_PortOpData, quantized cell clip and scale power."""
    _, m = _lstm_model((1, 3, 4), 2, cell_clip=3.0, cell_scale_power=-11,
                       out_zero_point=2)
    (step,) = prepare.prepare(m)
    p = step.case["lstm_params"]
    assert (p["cell_scale_power"], p["cell_clip"], p["output_offset"]) == (-11, 6144, 2)
    assert p["input_offset"] == 3 and not p["time_major"]
    # forget x cell -> cell: 2^-15 exactly, i.e. multiplier 2^30, shift -14
    assert (p["forget_to_cell_multiplier"], p["forget_to_cell_shift"]) == (2**30, -14)
    # input x cell gate -> cell: 2^-30 / 2^-11 = 2^-19
    assert (p["input_to_cell_multiplier"], p["input_to_cell_shift"]) == (2**30, -18)
    eff_x, eff_h = oracle_lstm.effective_biases(step.case)["forget"]
    w = np.asarray(step.case["forget_gate_input_weights"], np.int64).reshape(2, 4)
    wh = np.asarray(step.case["forget_gate_hidden_weights"], np.int64).reshape(2, 2)
    np.testing.assert_array_equal(eff_x, step.case["forget_gate_bias"] + 3 * w.sum(axis=1))
    np.testing.assert_array_equal(eff_h, -2 * wh.sum(axis=1))


def test_a_one_feature_model_has_a_positive_gate_shift():
    """The case MODELS covers: a gate multiplier above one (left shift in the kernels)."""
    shape, units, options = MODELS["one_feature_positive_gate_shift"]
    (step,) = prepare.prepare(_lstm_model(shape, units, **options)[1])
    assert step.case["lstm_params"]["forget_gate"]["input_shift"] > 0


def _edited(mutate):
    g = modelgen.Graph(seed=1)
    x = g.input((1, 3, 4), scale=0.05, zero_point=0)
    g.output(g.unidirectional_sequence_lstm(x, 3, name="lstm"))
    mutate(g)
    return model.parse(g.build(), "lstm.tflite")


def test_prepare_refuses_what_tflm_refuses():
    def peephole(g):
        g.ops[-1].inputs[9] = g.ops[-1].inputs[12]
    with pytest.raises(ModelError, match=r"lstm.tflite: .*input 9 .*must be absent"):
        prepare.prepare(_edited(peephole))

    def plain_state(g):
        g.tensors[g.ops[-1].inputs[18]].is_variable = False
    with pytest.raises(ModelError, match="lstm/output_state"):   # the loader or Prepare names it
        prepare.prepare(_edited(plain_state))

    def no_forget_weights(g):
        g.ops[-1].inputs[2] = -1
    with pytest.raises(ModelError, match=r"missing input-to-forget weights \(input 2\)"):
        prepare.prepare(_edited(no_forget_weights))

    def relu_cell(g):
        opts = g.ops[-1].options
        g.ops[-1].options = (opts[0], [(f, 1 if "Fused" in f.__name__ else v)
                                       for f, v in opts[1]], opts[2])
    with pytest.raises(ModelError, match="cell activation RELU"):
        prepare.prepare(_edited(relu_cell))

    def twenty_inputs(g):
        g.ops[-1].inputs = g.ops[-1].inputs[:20]
    with pytest.raises(ModelError, match="20 inputs; TFLM's UNIDIRECTIONAL_SEQUENCE_LSTM"):
        prepare.prepare(_edited(twenty_inputs))


def test_arena_requests_three_cmsis_and_four_reference_scratch_buffers():
    _, m = _lstm_model((2, 4, 8), 12)
    (step,) = prepare.prepare(m)
    for build, n in (("simd", 3), ("reference", 4)):
        plan = arena.plan(m, [step], Build(build))
        scratch = [b.size for b in plan.buffers if b.kind == "scratch"]
        assert scratch == [2 * 2 * 12] * n, build
        assert plan.tail_parts["variables"] == arena.align(2 * 12) + arena.align(2 * 12 * 2)
    cmsis = arena.plan(m, [step], Build("simd")).tail_parts["op_data"]
    ref = arena.plan(m, [step], Build("reference")).tail_parts["op_data"]
    assert cmsis - ref == 220 + 8 * 4 * 12      # cmsis_nn_lstm_params + the kernel sums


def _lstm_classifier(seed=0, steps=8, features=12, units=16, classes=6):
    """An LSTM classifier: a [1, time, features] sequence through an LSTM, the hidden states
    flattened, a fully connected layer and softmax (the shape of TFLM's mnist_lstm example)."""
    g = modelgen.Graph(seed=seed)
    x = g.input((1, steps, features), scale=0.05, zero_point=-5, name="sequence")
    h = g.unidirectional_sequence_lstm(x, units, name="lstm")
    h = g.reshape(h, (1, steps * units), name="flatten")
    y = g.fully_connected(h, classes, name="fc")
    g.output(g.softmax(y, name="softmax"))
    return g.build()


def test_lstm_classifier_profiles_end_to_end(tmp_path):
    data = _lstm_classifier()
    m = model.parse(data, "lstm_classifier.tflite")
    (x,) = profiler.random_inputs(m, seed=1)
    want = tflm_reference(data, x)
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=[x])
        assert np.array_equal(prof.outputs[0], want), path
        assert all(o.simulated and o.instructions > 0 for o in prof.ops), path
    path = tmp_path / "lstm_classifier.tflite"
    path.write_bytes(data)
    report = tmp_path / "profile.json"
    result = CliRunner().invoke(main, ["profile", str(path), "--json", str(report)])
    assert result.exit_code == 0, result.output
    assert "not simulated" not in result.output
    ops = json.loads(report.read_text())["ops"]
    assert ops[0]["kernel"].startswith("arm_lstm_unidirectional_s8 > arm_nn_lstm_step_s8")
    assert all(o["simulated"] for o in ops)


def test_per_channel_weights_run_on_the_host_as_tflm_runs_them():
    """TFLM's LSTM kernels apply one multiplier per gate; per-channel weights are not
    simulated: TFLM computes the op on the host (its state tensors kept by TFLM, not fed as
    inputs) and the output equals the interpreter's."""
    g = modelgen.Graph(seed=0)
    x = g.input((1, 4, 6), scale=0.05, zero_point=-3)
    g.output(g.unidirectional_sequence_lstm(x, 5, name="lstm"))
    w = g.tensors[g.ops[-1].inputs[1]]
    w.scale, w.zero_point = [w.scale] * 5, [0] * 5
    data = g.build()
    m = model.parse(data, "lstm.tflite")
    (step,) = prepare.prepare(m)
    assert step.host and "per-channel weights" in step.host_reason
    (xi,) = profiler.random_inputs(m, seed=1)
    prof = profiler.run(m, Build("simd"), inputs=[xi])
    assert not prof.ops[0].simulated
    assert np.array_equal(prof.outputs[0], tflm_reference(data, xi))


def test_a_clip_below_one_cell_state_step_as_each_tflm_kernel_treats_it():
    """cell_clip 1e-4 quantizes to 0 at a 2^-11 cell scale: TFLM's reference kernel tests the
    float clip and clamps the cell state to [0, 0] (the reference path equals the
    interpreter); its CMSIS-NN kernel gets the quantized 0 and does not clamp (the simd and
    scalar paths equal the numpy oracle of that case, and differ from the reference)."""
    data, m = _lstm_model((1, 4, 8), 6, cell_clip=1e-4, cell_scale_power=-11)
    (step,) = prepare.prepare(m)
    p = step.case["lstm_params"]
    assert p["cell_clip"] == 0 and p["cell_clip_enabled"]
    (x,) = profiler.random_inputs(m, seed=2)
    want = tflm_reference(data, x)
    assert np.array_equal(profiler.run(m, Build("reference"), inputs=[x]).outputs[0], want)
    cmsis = oracle_lstm.lstm(dict(step.case, input=x.ravel())).reshape(want.shape)
    assert not np.array_equal(cmsis, want)
    for path in ("simd", "scalar"):
        assert np.array_equal(profiler.run(m, Build(path), inputs=[x]).outputs[0], cmsis), path
