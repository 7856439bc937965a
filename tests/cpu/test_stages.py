"""Cycles by stage (issue 13 item 2): every instruction counts in one stage block of the
machine (code region x op category), each block is priced by the core's own terms, and the
stages of an op add up to its cycles exactly on every op of the shared models."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from armsim import api
from armsim.pipeline import prepare, profiler
from armsim.cli.main import main
from armsim.cpu import cores, machine
from armsim.pipeline.build import Build
from armsim.pipeline import harness

from conftest import SHARED

MODELS = ("kws", "vww", "ic", "ad")


@pytest.mark.parametrize("path", ["simd", "scalar", "reference"])
@pytest.mark.parametrize("name", MODELS)
def test_stages_sum_to_each_ops_cycles(name, path):
    model = api.load_model(str(SHARED / "models" / name / "model.tflite"))
    prof = profiler.run(model, Build(path))
    for o in prof.ops:
        if not o.simulated:
            continue
        assert set(o.stages) <= set(machine.STAGES), o.stages    # all split: nothing left over
        assert sum(r["cycles"] for r in o.stages.values()) == o.cycles, (o.index, o.op)
        assert sum(r["instructions"] for r in o.stages.values()) == o.instructions


def test_conv_stages_name_where_the_cycles_go():
    """The example's im2col convolution: MACs, im2col, requantize, transcribed stack traffic
    and TFLM's glue are all there (no calibrated traffic: the kernels are read off gcc's
    disassembly), and the DSP build spends fewer cycles on MACs than the plain-C one."""
    model = api.load_model(None)
    simd, scalar = (profiler.run(model, Build(p)).ops[0] for p in ("simd", "scalar"))
    assert "arm_convolve_s8" in simd.kernel
    for stage in ("mac", "im2col", "requantize", "calls", "glue", "loads"):
        assert simd.stages[stage]["cycles"] > 0, stage
    assert "calibrated" not in simd.stages and "calibrated" not in scalar.stages
    assert simd.stages["unpack"]["cycles"] > 0                   # SXTB16 / SXTAB16 / PKHBT
    assert simd.stages["mac"]["cycles"] < scalar.stages["mac"]["cycles"]
    # requantize: one arm_nn_requantize per output, the same instructions on both paths (the
    # M3 build loads some multipliers apart from the shift: they pipeline less)
    assert simd.stages["requantize"]["instructions"] == scalar.stages["requantize"]["instructions"]


def test_board_memory_is_its_own_row():
    """A board's data cache prices the whole load trace: not split, but still summed."""
    from armsim.data import boards
    model = api.load_model(None)
    config = boards.configure("nucleo-f767zi")
    prof = profiler.run(model, Build("simd", core=config.core), config.clock_mhz, board=config)
    for o in prof.ops:
        assert sum(r["cycles"] for r in o.stages.values()) == o.cycles
    assert any(cores.NOT_SPLIT in o.stages for o in prof.ops)


def test_stage_blocks_partition_the_counters():
    """The whole-run counters are the sum of the stage blocks, and a block's instructions
    are the stage's."""
    model = api.load_model(None)
    step = __import__("armsim.pipeline.prepare", fromlist=["prepare"]).prepare(model)[0]
    values = {t.index: x for t, x in zip(model.input_tensors(), profiler.random_inputs(model))}
    m, names, _, _ = harness.run_step(step, values, Build("simd"))
    blocks = machine.blocks(m)
    assert np.array_equal(machine.totals(m), blocks.sum(axis=0))
    stages = cores.stage_breakdown(m, "cortex-m4", 0, names)
    assert sum(r["instructions"] for r in stages.values()) == sum(machine.counts(m).values())


def test_profile_stages_view_and_json(tmp_path):
    out = tmp_path / "p.json"
    result = CliRunner().invoke(main, ["profile", "--stages", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "cycles by stage" in result.output and "im2col" in result.output
    data = json.loads(out.read_text())
    for op in data["ops"]:
        assert sum(r["cycles"] for r in op["stages"].values()) == op["cycles"]


def test_why_no_simd_gain():
    """compare's reasons come from the stage split of both paths' runs."""
    from armsim.analysis import insight
    model = api.load_model(None)
    simd, scalar = (profiler.run(model, Build(p)) for p in ("simd", "scalar"))
    gains = {g.op + str(g.index): g for g in
             (insight.simd_gain(a, b) for a, b in zip(simd.ops, scalar.ops)) if g}
    for g in gains.values():
        assert g.speedup == pytest.approx(scalar.ops[g.index].cycles / simd.ops[g.index].cycles)
        assert 0 <= g.fixed_share["scalar"] <= 1
        assert bool(g.reason) == (g.speedup < insight.LOW_GAIN)
    assert "no CMSIS-NN kernel for RESHAPE" in gains["RESHAPE4"].reason
    assert "no ARM_MATH_DSP code" in gains["MAX_POOL_2D3"].reason
    conv = gains["CONV_2D0"]                      # im2col: the copies dominate the plain-C run
    assert "im2col" in conv.reason and conv.simd_stage_speedup > 1.3
    result = CliRunner().invoke(main, ["compare"])
    assert result.exit_code == 0, result.output
    assert "why simd gains less than 1.3x" in result.output and "#4 RESHAPE" in result.output


SINGLE_ISSUE = [name for name, c in cores.CORES.items() if c.dual_issue is None]


@pytest.mark.parametrize("core_name", SINGLE_ISSUE)
def test_the_block_weights_price_every_stage_block_as_breakdown_of_does(core_name):
    """`stage_breakdown` prices a single-issue core's stage blocks as one matrix product;
    each block's product equals that block's own `breakdown_of` total, wait states included."""
    assert {"cortex-m4", "cortex-m33"} <= set(SINGLE_ISSUE)
    model = api.load_model(None)
    values = dict(zip((t.index for t in model.input_tensors()), profiler.random_inputs(model)))
    for step in prepare.prepare(model)[:2]:
        m, names, _, out = harness.run_step(step, values, Build("simd"))
        values[step.output] = np.asarray(out).reshape(step.output_shape)
        waits = {"flash": 2, "sram": 1}
        weights = cores._block_weights(core_name, tuple(names), tuple(sorted(waits.items())))
        blocks = machine.blocks(m)
        active = np.flatnonzero(blocks[:, :cores.N_MNEMONICS].any(axis=1))
        assert len(active) > 3
        for k in active:
            counters = cores.Counters.of_block(blocks[k], names)
            assert int(blocks[k] @ weights) == cores.breakdown_of(counters, core_name,
                                                                  waits)["total"], k
