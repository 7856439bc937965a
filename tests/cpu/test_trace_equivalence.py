"""One kernel source, two runs: the traced run (armsim.cpu.kernel.Tracer, plain Python with
recording ops) must execute exactly what the counted run (numba) counts.

For each run pair: identical outputs, identical memory, the identical state vector
(per-mnemonic counts, taken branches, Q/GE flags, class pairs, stack beats, per-region
traffic), and one trace record per counted instruction.

Coverage: a small kernel of this file (calls, an inlined helper, loads/stores in two
regions, Q and GE flags, taken and not-taken branches), then every case file of
../shared/cmsis_nn_vectors on the simd, scalar and reference paths.  The traced run costs 7-15
microseconds per instruction (benchmarks/bench_machine.py), so a case whose counted run
executes more than TRACE_CAP instructions (conv_1_x_n_7: 5.8-21 M; transpose_conv_1 on the
reference path: 3.1 M) is traced on a
reduced copy -- first batch, first output channel, same kernel path -- compared with the
counted run of that same copy.  Batch matmuls and the CMSIS-NN convolutions are first traced
with fewer rows and columns that take every branch the whole case takes (`_fewer_iterations`,
checked by tools/trace_coverage.py); ARMSIM_TRACE_WHOLE=1 traces every case whole.
"""
import collections
import os

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.cpu.kernel import Tracer, kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, fitted_ldr_sp, it, ldr, ldrsb, mov, pop_pc, push,
                            sadd8, sel, smlad, ssat, str_, strb, sub, sxtb16)
from armsim.pipeline import harness
from armsim.pipeline.build import PATHS, Build

from conftest import VECTORS, load_case, shared_cases

TRACE_WHOLE = bool(os.environ.get("ARMSIM_TRACE_WHOLE"))
TRACE_CAP = 10 ** 12 if TRACE_WHOLE else int(os.environ.get("ARMSIM_TRACE_CAP", 1_200_000))


# --- a small kernel of our own -------------------------------------------------------------

@kernel(inline=True)
def _clamp_s8(m, x):
    return ssat(m, x, 8, 0)                      # SSAT Rd, #8, Rn (sets Q when it clips)


@kernel
def _dot4(m, a, w):
    push(m, 2)
    x = ldr(m, a)
    k = ldr(m, w)
    acc = smlad(m, sxtb16(m, x, 8), sxtb16(m, k, 8), 0)
    acc = smlad(m, sxtb16(m, x, 0), sxtb16(m, k, 0), acc)
    pop_pc(m, 2)
    return acc


@kernel
def _toy(m, src, weights, dst, n):
    """dst[i] = clamp(dot4(src, weights[i]) >> 4) for n rows, then a byte-wise max of the
    first two outputs through SADD8/SEL (GE flags)."""
    push(m, 4)
    fitted_ldr_sp(m)                             # calibrated bookkeeping, marked as such
    i = mov(m, 0)
    while True:
        bl(m)
        acc = _dot4(m, src, weights + 4 * i)
        strb(m, dst + i, _clamp_s8(m, acc >> 4))
        i = add(m, i, 1)
        cmp(m, i, n)
        more = i < n
        bcc(m, more)
        if not more:
            break
    a = ldr(m, dst)
    b = ldrsb(m, dst + 1)
    sadd8(m, a, sub(m, 0, b))
    it(m)
    str_(m, dst + 8, sel(m, a, b))
    pop_pc(m, 4)
    return i


def _toy_machine():
    rng = np.random.default_rng(7)
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 0).region("flash", machine.FLASH_BASE, 0)
    src = mem.place("sram", rng.integers(-128, 128, 4, dtype=np.int8))
    weights = mem.place("flash", rng.integers(-128, 128, 4 * 6, dtype=np.int8))
    dst = mem.place("sram", 16)
    return machine.build(mem), (src, weights, dst, 6)


def assert_same_run(fast_m, traced_m):
    assert np.array_equal(fast_m.mem, traced_m.mem)
    assert np.array_equal(fast_m.st, traced_m.st)


def test_own_kernel_traced_equals_counted():
    fast_m, args = _toy_machine()
    traced_m, _ = _toy_machine()
    tracer = Tracer()
    assert run(_toy, fast_m, *args) == run(_toy, traced_m, *args, tracer=tracer) == 6
    assert_same_run(fast_m, traced_m)
    assert len(tracer.records) == sum(machine.counts(fast_m).values())
    assert fast_m.st[machine.Q_FLAG] == 1            # the clamp clipped: Q is part of the state
    assert machine.counter(fast_m, machine.TAKEN) > 0
    functions = {r.function for r in tracer.records}
    assert {"_toy", "_dot4", "_clamp_s8"} <= functions
    # stack depths (remembered per frame by the tracer): callees one deeper than _toy
    depth = {r.function: {q.depth for q in tracer.records if q.function == r.function}
             for r in tracer.records}
    (toy,) = depth["_toy"]
    assert depth["_dot4"] == depth["_clamp_s8"] == {toy + 1}
    first_smlad = next(r for r in tracer.records if r.mnemonic == "smlad")
    assert first_smlad.function == "_dot4" and len(first_smlad.operands) == 3
    # the fitted LDR counts as an LDR and is told apart in the trace and the counters
    assert [(r.op, r.mnemonic) for r in tracer.records if r.fitted] == [("fitted_ldr_sp", "ldr")]
    assert machine.fitted_counts(fast_m) == {"ldr": 1}
    assert machine.counts(fast_m)["ldr"] == 1 + 2 * 6 + 1


def test_a_traced_run_restores_the_garbage_collector():
    """`run` pauses the cyclic collector while tracing and puts it back as it was, also when
    the kernel faults."""
    import gc
    fast_m, args = _toy_machine()
    run(_toy, fast_m, *args, tracer=Tracer())
    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="trace longer than 3"):
        run(_toy, fast_m, *args, tracer=Tracer(limit=3))
    assert gc.isenabled()
    gc.disable()
    try:
        run(_toy, fast_m, *args, tracer=Tracer())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_different_run_is_detected():
    """The comparison has teeth: one more row changes memory and counts."""
    fast_m, args = _toy_machine()
    traced_m, _ = _toy_machine()
    run(_toy, fast_m, *args)
    run(_toy, traced_m, *args[:3], 5, tracer=Tracer())
    with pytest.raises(AssertionError):
        assert_same_run(fast_m, traced_m)


# --- every vector case -----------------------------------------------------------------

CASES = shared_cases(VECTORS)


#: traced problems keep each loop's trip count modulo this (the kernels' unrolls: 2, 3, 4)
PERIOD = 12


def _fewer(extent, period=PERIOD, edge=0):
    """A smaller loop extent taking the same branches: the same count modulo `period` and at
    least two periods past the `edge` iterations that take an edge path (padding)."""
    if extent < edge + 2 * period:
        return extent
    return edge + period + (extent - edge) % period


def _fewer_iterations(case, path):
    """The case with fewer rows and columns, every branch the whole case takes still taken.
    A batch matmul keeps its batches (and their broadcasts) and depth, and computes fewer
    output rows and columns (the same counts modulo 12: the row pair / triple / quad loops
    and their leftovers run as before).  A convolution keeps batches, channels and filter,
    and computes fewer output rows and columns (the same counts modulo 4: the kernels take
    output pixels two or four at a time) past the ones whose window reaches the padding;
    it drops input rows and columns `stride` per dropped output, so the bottom / right
    padding is as before.  Not conv_s16 (fewer outputs of int16xint8_dilation_1 miss the
    activation clamp's MOV) nor TFLM's reference convolution (conv_3's last rows are the
    only ones its clamp to the minimum moves): those are traced as before.  Checked by
    tools/trace_coverage.py: on each case shrunk, the traced run of the smaller case
    executes the same set of (function, line, op, branch taken) as the problem this file
    traced before (the whole case, or its `_reduced` copy past 1.2 M instructions)."""
    family = case["family"]
    if family in ("batch_matmul", "batch_matmul_s16"):
        lhs_d, rhs_d = case["input_lhs_dims"], case["input_rhs_dims"]
        rows, cols = _fewer(lhs_d["w"]), _fewer(rhs_d["w"])
        if (rows, cols) == (lhs_d["w"], rhs_d["w"]):
            return case

        def first(flat, d, w):                    # [n, h, w, c]: the first w of each matrix
            return np.asarray(flat).reshape(d["n"], d["h"], d["w"], d["c"])[:, :, :w].ravel()
        small = dict(case, input_lhs_dims=dict(lhs_d, w=rows),
                     input_rhs_dims=dict(rhs_d, w=cols),
                     output_dims=dict(case["output_dims"], w=rows, c=cols),
                     input=first(case["input"], lhs_d, rows).tolist(),
                     input2=first(case["input2"], rhs_d, cols).tolist())
    elif family in ("conv", "conv_s4") and path != "reference":
        params, f = case["conv_params"], case["filter_dims"]
        in_d, out_d = case["input_dims"], case["output_dims"]
        kept = {}
        for axis in ("h", "w"):
            stride = params["stride"][axis]
            span = params["dilation"][axis] * (f[axis] - 1)
            out = _fewer(out_d[axis], period=4, edge=2 * -(-span // stride))
            kept[axis] = out, in_d[axis] - (out_d[axis] - out) * stride
        (oh, ih), (ow, iw) = kept["h"], kept["w"]
        if (oh, ow) == (out_d["h"], out_d["w"]):
            return case
        x = np.asarray(case["input"]).reshape(in_d["n"], in_d["h"], in_d["w"], in_d["c"])
        small = dict(case, input_dims=dict(in_d, h=ih, w=iw),
                     output_dims=dict(out_d, h=oh, w=ow), input=x[:, :ih, :iw].ravel().tolist())
    else:
        return case
    small.pop("output_ref", None)
    return small


def _reduced(case):
    """The same convolution with one batch and one output channel (same dispatch); an int4
    depthwise convolution with one output row; an int4 convolution with one output channel
    (the first ceil(taps / 2) packed bytes); a batch matmul with one output batch and
    height (its first lhs and rhs matrices)."""
    if case["family"] in ("batch_matmul", "batch_matmul_s16"):
        one = {"n": 1, "h": 1}
        lhs, rhs = dict(case["input_lhs_dims"], **one), dict(case["input_rhs_dims"], **one)
        small = dict(case, input_lhs_dims=lhs, input_rhs_dims=rhs,
                     output_dims=dict(case["output_dims"], **one),
                     input=case["input"][:lhs["w"] * lhs["c"]],
                     input2=case["input2"][:rhs["w"] * rhs["c"]])
        small.pop("output_ref", None)
        return small
    if case["family"] == "depthwise_conv_s4":      # one output row (same dispatch)
        small = dict(case, output_dims=dict(case["output_dims"], h=1))
        small.pop("output_ref", None)
        return small
    assert case["family"] in ("conv", "transpose_conv", "conv_s4") and \
        case.get("groups", 1) == 1, case["case"]
    small = dict(case, input_dims=dict(case["input_dims"], n=1),
                 output_dims=dict(case["output_dims"], n=1, c=1),
                 filter_dims=dict(case["filter_dims"], n=1))
    per_channel = len(case["weights"]) // case["filter_dims"]["n"]
    in_batch = len(case["input"]) // case["input_dims"]["n"]
    if case["family"] == "conv_s4":                # packed: the first channel's bytes
        f = case["filter_dims"]
        per_channel = (f["h"] * f["w"] * f["c"] + 1) // 2
    small.update(input=case["input"][:in_batch], weights=case["weights"][:per_channel],
                 bias=case["bias"][:1], output_mult=case["output_mult"][:1],
                 output_shift=case["output_shift"][:1])
    small.pop("output_ref", None)
    return small


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case_file", CASES, ids=lambda p: p.stem)
def test_vector_case_traced_equals_counted(case_file, path):
    case = load_case(case_file)
    if not TRACE_WHOLE:
        case = _fewer_iterations(case, path)
    fast = harness.run_case(case, Build(path))
    if fast.instructions > TRACE_CAP:
        case = _reduced(case)
        fast = harness.run_case(case, Build(path))
    n = fast.instructions
    assert n <= TRACE_CAP, f"{case_file.stem}: {n} instructions even reduced"
    tracer = Tracer(limit=TRACE_CAP + 1)
    traced = harness.run_case(case, Build(path), tracer=tracer)
    assert traced.kernel_path == fast.kernel_path
    assert np.array_equal(traced.output, fast.output)
    assert_same_run(fast.m, traced.m)
    assert len(tracer.records) == n
    # the records the trace marks fitted are exactly the counted run's FITTED block
    fitted = collections.Counter(r.mnemonic for r in tracer.records if r.fitted)
    assert dict(fitted) == machine.fitted_counts(fast.m)

