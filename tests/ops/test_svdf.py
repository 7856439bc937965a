"""SVDF: arm_svdf_s8 (int8 state) and arm_svdf_state_s16_s8 (int16 state) against the
CMSIS-NN vectors and the measured counts of ../shared (output and the updated state), and
test-built models against TFLM's Python interpreter on all three paths, over several
invocations (the state carried over), plus a keyword-spotter-shaped model profiled end to
end.  (tests/kernels/test_oracle.py, test_reference_path.py, test_trace_equivalence.py,
test_reference_cycles.py and test_failed_it.py pick the cases up from ../shared too.)"""
import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import REFERENCE, VECTORS, shared_cases
from model_helpers import tflm_reference

from armsim.pipeline import arena, model, prepare, profiler
from armsim.data import modelgen
from armsim.cli.main import main
from armsim.cpu import machine
from armsim.kernels import oracle
from armsim.pipeline.harness import run_case
from armsim.errors import ModelError
from armsim.pipeline.build import Build

FILES = (shared_cases(VECTORS, "svdf") + shared_cases(VECTORS, "svdf_state_s16")
         + shared_cases(REFERENCE, "svdf"))
MEASURED = shared_cases(REFERENCE, "svdf")
PATHS = ("simd", "scalar", "reference")


def _load(path):
    return json.loads(path.read_text())


def _state(result, case):
    dtype = np.int16 if case["family"] == "svdf_state_s16" else np.int8
    return machine.read(result.m, result.addr["state"], len(case["state"]), dtype)


def test_the_directories_hold_svdf_cases():
    assert len(shared_cases(VECTORS, "svdf")) == 2
    assert len(shared_cases(VECTORS, "svdf_state_s16")) == 3 and len(MEASURED) == 2


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("file", FILES, ids=lambda p: p.stem)
def test_output_and_updated_state(file, path):
    """Every step of the case runs (num_steps calls); the output of the last one and the
    state left behind are the unit test's / the measured firmware's."""
    case = _load(file)
    result = run_case(case, Build(path))
    np.testing.assert_array_equal(result.output, np.asarray(case["output_ref"], np.int8))
    want_state = case.get("state_ref")
    if want_state is None:
        want_state = oracle.svdf_run(case)[1]
    np.testing.assert_array_equal(_state(result, case), np.asarray(want_state))


def test_memmove_is_newlib_byte_copy():
    """The state shift: memmove of n - 1 bytes from state + 1 (misaligned): 4 n + 14 (n >= 16);
    the aligned copy's blocks, words and bytes and the backward copy move the same bytes."""
    from armsim.cpu.kernel import run
    from armsim.kernels.libc import memmove
    for n, src_off in ((1023, 1), (40, 0), (9, 3), (23, 4), (30, -3)):
        mem = machine.Memory()
        mem.region("sram", machine.SRAM_BASE, 0)
        data = np.arange(n + 8, dtype=np.int64).astype(np.int8)
        base = mem.place("sram", data) + max(0, -src_off)
        m = machine.build(mem, dsp=True)
        run(memmove, m, base, base + src_off, n)
        expect = data.copy()
        start = max(0, -src_off)
        expect[start:start + n] = data[start + src_off:start + src_off + n]
        np.testing.assert_array_equal(machine.read(m, base - start, n + 8), expect)
        if src_off == 1:
            assert sum(machine.counts(m).values()) == 4 * n + 14


# --- models against TFLM -------------------------------------------------------------------

def _svdf_model(state_dtype, rank, batch=1, size=12, units=4, memory=5, seed=4, **kw):
    g = modelgen.Graph(seed=seed)
    x = g.input((batch, size), scale=0.05, zero_point=-3)
    g.output(g.svdf(x, units, rank=rank, memory=memory, state_dtype=state_dtype, **kw))
    data = g.build()
    return data, model.parse(data, "svdf.tflite")


MODELS = {
    "int8_rank1": {"state_dtype": "int8", "rank": 1},
    "int8_rank2_batch2": {"state_dtype": "int8", "rank": 2, "batch": 2, "memory": 6},
    "int16_rank1": {"state_dtype": "int16", "rank": 1, "memory": 8},
    "int16_rank3_batch2": {"state_dtype": "int16", "rank": 3, "batch": 2, "memory": 7, "size": 9},
    # TFLM's int8 SVDF (both kernels) ignores the fused activation
    "int8_relu": {"state_dtype": "int8", "rank": 1, "activation": "RELU", "out_zero_point": -20},
    "int16_relu6": {"state_dtype": "int16", "rank": 2, "activation": "RELU6"},
}


def _tflm_steps(data, xs):
    """The interpreter's output after each of several invocations (state carried)."""
    from tflite_micro.python.tflite_micro import runtime
    it = runtime.Interpreter.from_bytes(data)
    out = []
    for x in xs:
        it.set_input(np.asarray(x), 0)
        it.invoke()
        out.append(np.array(it.get_output(0)))
    return out


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_bit_exact_vs_tflite_micro(name):
    data, m = _svdf_model(**MODELS[name])
    (x,) = profiler.random_inputs(m, seed=5)
    want = tflm_reference(data, x)
    family = "svdf_state_s16" if MODELS[name]["state_dtype"] == "int16" else "svdf"
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=[x])
        assert np.array_equal(prof.outputs[0], want), (name, path)
        if path != "reference":
            assert prof.ops[0].kernel.split(" > ")[0] == (
                "arm_svdf_state_s16_s8" if family == "svdf_state_s16" else "arm_svdf_s8")


@pytest.mark.parametrize("name", ["int8_rank2_batch2", "int16_rank1"])
def test_state_carries_over_invocations_as_in_tflm(name):
    """Four invocations: the prepared case with four input blocks (the state kept in the
    simulated SRAM between the calls) against the interpreter invoked four times."""
    data, m = _svdf_model(**MODELS[name])
    xs = [profiler.random_inputs(m, seed=s)[0] for s in range(4)]
    want = _tflm_steps(data, xs)[-1]
    (step,) = prepare.prepare(m)
    for path in PATHS:
        case = dict(step.cmsis_case if path != "reference" else step.case)
        case.update(input=np.concatenate([x.ravel() for x in xs]), num_steps=len(xs))
        got = run_case(case, Build(path)).output.reshape(want.shape)
        assert np.array_equal(got, want), path


def test_state_zero_point_only_in_the_reference_kernel():
    """TFLM's reference subtracts the int8 state's zero point; its CMSIS-NN glue passes it
    to neither kernel.  The reference path equals the interpreter; the CMSIS-NN paths equal
    the numpy oracle of what TFLM's glue passes."""
    data, m = _svdf_model("int8", 1, state_zero_point=7)
    (step,) = prepare.prepare(m)
    assert step.case["svdf_params"]["state_offset"] == 7
    assert (step.case["state"] == 7).all()
    (x,) = profiler.random_inputs(m, seed=3)
    want = tflm_reference(data, x)
    assert np.array_equal(profiler.run(m, Build("reference"), inputs=[x]).outputs[0], want)
    cmsis = dict(step.cmsis_case, input=x.ravel())
    expected = oracle.svdf(cmsis).reshape(want.shape)
    for path in ("simd", "scalar"):
        assert np.array_equal(profiler.run(m, Build(path), inputs=[x]).outputs[0], expected), path


def test_prepare_refuses_a_missing_bias_and_a_non_variable_state():
    g = modelgen.Graph(seed=1)
    x = g.input((1, 8), scale=0.05, zero_point=0)
    y = g.svdf(x, 2, rank=1, memory=3)
    g.output(y)
    g.ops[-1].inputs[3] = -1
    with pytest.raises(ModelError, match=r"svdf.tflite: .*no bias"):
        prepare.prepare(model.parse(g.build(), "svdf.tflite"))
    g.ops[-1].inputs[3] = next(t for t, tensor in enumerate(g.tensors)
                                if tensor.name.endswith("/bias"))
    g.tensors[g.ops[-1].inputs[4]].is_variable = False
    with pytest.raises(ModelError, match="svdf_0/state"):     # the loader's check names it
        prepare.prepare(model.parse(g.build(), "svdf.tflite"))


def test_arena_keeps_the_state_persistent_and_requests_two_scratch_buffers():
    _, m = _svdf_model("int16", 2, batch=2, units=3, memory=4)
    (step,) = prepare.prepare(m)
    for build in ("simd", "reference"):
        plan = arena.plan(m, [step], Build(build))
        assert plan.tail_parts["variables"] == arena.align(2 * 4 * 6 * 2)   # int16 state
        scratch = sorted(b.size for b in plan.buffers if b.kind == "scratch")
        assert scratch == [4 * 2 * 3, 4 * 2 * 6]       # batch*units and batch*filters words
        assert all(b.kind != "tensor" or not m.tensors[b.tensor].is_variable
                   for b in plan.buffers)


def _kws_svdf(seed=0):
    """A keyword spotter shaped like TFLM's SVDF examples: a 40-feature frame through two
    SVDF layers (int8 and int16 state), a fully connected classifier and softmax."""
    g = modelgen.Graph(seed=seed)
    x = g.input((1, 40), scale=0.1, zero_point=-10, name="features")
    h = g.svdf(x, 32, rank=1, memory=10, state_dtype="int8", name="svdf1")
    h = g.svdf(h, 16, rank=2, memory=8, state_dtype="int16", name="svdf2")
    y = g.fully_connected(h, 12, activation="NONE", name="fc")
    g.output(g.softmax(y, name="softmax"))
    return g.build()


def test_svdf_keyword_spotter_profiles_end_to_end(tmp_path):
    data = _kws_svdf()
    m = model.parse(data, "kws_svdf.tflite")
    (x,) = profiler.random_inputs(m, seed=1)
    want = tflm_reference(data, x)
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=[x])
        assert np.array_equal(prof.outputs[0], want), path
        assert all(o.simulated and o.instructions > 0 for o in prof.ops), path
    path = tmp_path / "kws_svdf.tflite"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["profile", str(path)])
    assert result.exit_code == 0, result.output
    assert "arm_svdf_s8" in result.output and "arm_svdf_state_s16_s8" in result.output
    assert "not simulated" not in result.output
