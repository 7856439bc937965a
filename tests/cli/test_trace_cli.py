"""`armsim trace`: every executed instruction with operands/results (hex and lanes), the C
statement it comes from, the memory written (the unordered ch0, ch2, ch1, ch3 order), and
counts of both paths; the traced run and the counted run execute the same instructions."""
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from armsim.cpu import machine
from armsim.analysis import trace
from armsim.cli.main import main
from armsim.pipeline.build import Build
from armsim.pipeline import harness

SHARED = Path(__file__).resolve().parents[3] / "shared"


def run(*args):
    result = CliRunner().invoke(main, ["trace", *args])
    return result.exit_code, result.output


def instruction_lines(text):
    """(mnemonic, line, statement line) for each traced instruction."""
    lines = text.splitlines()
    out = []
    for i, ln in enumerate(lines):
        if re.match(r"^ *\d+  [a-z]", ln):
            out.append((ln.split()[1], ln, lines[i + 1]))
    return out


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("values", [[1, -2, 3, -4], [127, -128, 0, 5, -7, 9, 100]])
def test_widen_traced_counts_equal_counted_run(path, values):
    problem, records, m_traced, shown, data, m_fast = trace.trace_problem(
        "arm_s8_to_s16_unordered_with_offset", Build(path), ",".join(map(str, values)), 128)
    assert trace.traced_counts(records) == machine.counts(m_fast)
    assert np.array_equal(m_traced.st, m_fast.st), "same counters, flags and traffic"
    # outputs: src[order[j]] + offset, in the unordered order on the SIMD path
    n = len(values)
    order = data["order"]
    assert data["dst"] == [values[i] + 128 for i in order]
    if path == "simd":
        expect = []
        for base in range(0, n - n % 4, 4):
            expect += [base, base + 2, base + 1, base + 3]
        expect += list(range(n - n % 4, n))
        assert order == expect
        assert trace.traced_counts(records)["sxtab16"] == 2 * (n // 4)
    else:
        assert order == list(range(n))
        assert trace.traced_counts(records)["ldrsb"] == n


def test_widen_simd_output():
    code, text = run("arm_s8_to_s16_unordered_with_offset", "--values", "1,-2,3,-4",
                     "--offset", "128")
    assert code == 0, text
    ins = instruction_lines(text)
    mnemonics = [mn for mn, _, _ in ins]
    # the instruction order of the loop body
    body = mnemonics[mnemonics.index("ldr"):mnemonics.index("ldr") + 8]
    assert body == ["ldr", "add", "cmp", "ror", "sxtab16", "sxtab16", "str", "str"]
    by = {mn: [] for mn in mnemonics}
    for mn, line, stmt in ins:
        by[mn].append((line, stmt))
    ldr_line, ldr_stmt = by["ldr"][0]
    assert "[0x20000000]" in ldr_line and "0xFC03FE01 (-4|3|-2|1)" in ldr_line
    assert "arm_nn_read_s8x4_ia(&src)" in ldr_stmt
    (sx1, st1), (sx2, st2) = by["sxtab16"]
    assert "0x00800080 (128|128), 0xFC03FE01 (-4|3|-2|1), #0  ->  0x00830081 (131|129)" in sx1
    assert "SXTAB16(offset_s16x2, in_s8x4)" in st1
    assert "0x01FC03FE (1|-4|3|-2), #0  ->  0x007C007E (124|126)" in sx2
    assert "SXTAB16(offset_s16x2, ROR(in_s8x4, 8))" in st2
    assert "PKHBT(offset, offset, 16)" in by["pkhbt"][0][1]
    assert "arm_s8_to_s16_unordered_with_offset.py:" in st1
    assert "dst (int16) @0x20000010:   129   131   126   124" in text
    assert "= src[i] + 128 for i =     0     2     1     3" in text
    assert "element order: ch0, ch2, ch1, ch3" in text
    # the closing count table: both paths, totals equal the counted runs
    counts = {}
    for p in ("simd", "scalar"):
        prob = trace.PROBLEMS["arm_s8_to_s16_unordered_with_offset"](Build(p), [1, -2, 3, -4],
                                                                      128)
        counts[p] = machine.counts(prob.execute()[0])
    table = text[text.index("instruction counts"):].splitlines()
    assert table[1].split() == ["mnemonic", "class", "simd", "scalar"]
    total = table[-2].split()
    assert total == ["total", str(sum(counts["simd"].values())), str(sum(counts["scalar"].values()))]
    assert table[-1].split() == ["of", "which", "fitted", "0", "0"]   # transcribed, every one
    rows = {ln.split()[0]: ln.split()[2:] for ln in table[2:-2]}
    assert rows["sxtab16"] == [str(counts["simd"]["sxtab16"]), "0"]
    assert rows["ldrsb"] == ["0", str(counts["scalar"]["ldrsb"])]
    assert "this trace: 22 instructions" in text or \
        f"this trace: {sum(counts['simd'].values())} instructions" in text


def test_widen_scalar_output():
    code, text = run("arm_s8_to_s16_unordered_with_offset", "--values", "1,-2,3,-4",
                     "--offset", "128", "--path", "scalar")
    assert code == 0, text
    assert "arm_q7_to_q15_with_offset" in text
    assert "dst (int16) @0x20000010:   129   126   131   124" in text
    assert "element order: ch0, ch1, ch2, ch3" in text
    ins = instruction_lines(text)
    ldrsb = [(ln, st) for mn, ln, st in ins if mn == "ldrsb"]
    assert len(ldrsb) == 4
    assert [ln.split("->")[1].strip() for ln, _ in ldrsb] == ["1", "-2", "3", "-4"]
    assert all("*src++" in st for _, st in ldrsb)
    strh = [ln for mn, ln, _ in ins if mn == "strh"]
    assert [ln.split(",")[-1].strip() for ln in strh] == ["129", "126", "131", "124"]


def test_read_and_pad_reordered():
    code, text = run("read_and_pad_reordered", "--values", "1,-2,3,-4")
    assert code == 0, text
    assert "out1 0x00030001" in text and "out2 0xFFFCFFFE" in text
    assert "out1 = (src[2] << 16) | src[0],  out2 = (src[3] << 16) | src[1]" in text
    ins = instruction_lines(text)
    assert [mn for mn, _, _ in ins] == ["ldr", "ror", "sxtb16", "sxtb16"]
    assert "*out2 = SXTB16(ROR((uint32_t)inA, 8));" in ins[2][2]
    assert "*out1 = SXTB16(inA);" in ins[3][2]
    code, text = run("read_and_pad_reordered", "--path", "scalar")
    assert code != 0 and "only in the ARM_MATH_DSP build" in text


@pytest.mark.parametrize("seed,out_ch,cols", [(0, 2, 6), (1, 3, 9), (2, 1, 3)])
def test_mat_mult_paths_agree(seed, out_ch, cols):
    outs = {}
    for path in ("simd", "scalar"):
        problem, records, m_traced, shown, data, m_fast = trace.trace_problem(
            "arm_nn_mat_mult_kernel_s8_s16", Build(path), None, 3, out_ch=out_ch, cols=cols,
            seed=seed)
        assert trace.traced_counts(records) == machine.counts(m_fast)
        assert data["out"] == problem.reference
        outs[path] = data["out"]
        mns = trace.traced_counts(records)
        if path == "simd":
            assert mns.get("smlad", 0) == 8 * (out_ch // 2) * (cols // 4) + \
                4 * (out_ch % 2) * (cols // 4)
        else:
            assert "smlad" not in mns and mns["mla"] >= 2 * out_ch * cols
    assert outs["simd"] == outs["scalar"]


def test_mat_mult_cli_marks_inlined_helpers():
    """gcc inlines the kernel's helpers (requantize, clamps): the trace names the port's
    helper it is in but marks it inlined, since the compiled code makes no call."""
    code, text = run("arm_nn_mat_mult_kernel_s8_s16", "--cols", "4", "--offset", "3")
    assert code == 0, text
    assert "-- in requantize_inlined (inlined, depth +2)" in text
    assert "(called," not in text
    ins = instruction_lines(text)
    smlad = [(ln, st) for mn, ln, st in ins if mn == "smlad"]
    assert len(smlad) == 8
    assert "ch_0_out_0 = SMLAD(a01, b0, ch_0_out_0);" in smlad[0][1]


@pytest.mark.parametrize("args,message", [
    (["arm_nope"], "unknown kernel 'arm_nope'"),
    (["arm_s8_to_s16_unordered_with_offset", "--values", "1,300"], "300 is not an int8"),
    (["arm_s8_to_s16_unordered_with_offset", "--values", "1,x"], "comma-separated integers"),
    (["read_and_pad_reordered", "--values", "1,2"], "exactly four int8 values"),
    (["/nonexistent/case.json"], "cannot read a case"),
])
def test_errors(args, message):
    code, text = run(*args)
    assert code != 0 and message in text and "Traceback" not in text


def test_trace_a_conv_case():
    """A whole op from a CMSIS-NN vector: output equals output_ref, trace equals counts."""
    path = SHARED / "cmsis_nn_vectors" / "basic__convolve.json"
    case, res, records, fast = trace.trace_case(str(path), Build("simd"))
    assert np.array_equal(res.output, np.asarray(case["output_ref"], np.int8).ravel())
    assert trace.traced_counts(records) == fast.counts()
    # the wrapper's BL into the widening helper is a call; the port's own helpers are not
    entries = trace.frame_entries(records)
    how = {r.function: e for r, e in zip(records, entries) if r.depth > records[0].depth}
    assert how["arm_s8_to_s16_unordered_with_offset"] == "called"
    assert how["requantize_inlined"] == "inlined"
    code, text = run(str(path), "--max-lines", "5")
    assert code == 0, text
    assert "equals the case's output_ref: yes" in text
    assert len(instruction_lines(text)) == 5
    assert f"... {len(records) - 5} more instructions" in text


@pytest.mark.parametrize("path", ["simd", "scalar"])
def test_trace_an_op_of_the_example_model(path):
    """An op of a .tflite model: the ops before it run counted, the op itself traced."""
    from armsim import api
    from armsim.pipeline import prepare, profiler
    example = api.load_model(None)
    model, step, chain, records, m, out, fast = trace.trace_model_op(example, 5, Build(path))
    assert step.op == "FULLY_CONNECTED"
    assert trace.traced_counts(records) == machine.counts(fast[path])
    assert trace.traced_fitted_counts(records) == machine.fitted_counts(fast[path])
    # the traced op's output is the one the counted whole-model run produces
    steps = prepare.prepare(example)
    values = {t.index: x for t, x in zip(example.input_tensors(), profiler.random_inputs(example))}
    for s in steps[:6]:
        values[s.output] = np.asarray(harness.run_step(s, values, Build(path))[3]).reshape(
            s.output_shape)
    assert np.array_equal(np.asarray(out).ravel(), values[steps[5].output].ravel())
    code, text = run("example", "--op", "5", "--path", path, "--max-lines", "4")
    assert code == 0, text
    assert "op 5 FULLY_CONNECTED" in text and len(instruction_lines(text)) == 4
    assert f"equal to the counted {path} run" in text


def test_trace_model_errors():
    code, text = run("example", "--op", "99")
    assert code != 0 and "the model has ops 0..6" in text
    code, text = run("example.tflite")
    assert code != 0 and "needs --op" in text
