"""Simulation speed of the machine: counted (numba) and traced runs of one SMLAD kernel.

    python benchmarks/bench_machine.py [--cols N] [--reps R] [--no-compile] [--trace-loads]
                                       [--helpers]

Prints simulated instructions per second for
  * the fast counted run (the @kernel compiled by numba, warm), with its exact
    per-mnemonic counts checked against the loop structure (with --trace-loads, on a machine
    that records the flash load trace the board cache models replay: both weight rows are in
    flash and interleaved, so every load appends -- the worst case; with --helpers, the
    same instructions issued from an inlined helper that takes the machine, which is how
    the CMSIS-NN ports are written: its rate should match the plain kernel's),
  * the traced run (armsim.cpu.kernel.Tracer: every instruction recorded with operands),
  * numba's first compile (a fresh process with an empty NUMBA_CACHE_DIR) and the start
    of a second process on that warm cache.
No thresholds: figures only (issue 2 asks for >= 300 M instructions/s counted).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from armsim.cpu import machine  # noqa: E402
from armsim.cpu.kernel import Tracer, kernel, run  # noqa: E402
from armsim.cpu.ops import bcc, ldr, mov, smlad, str_, sub, sxtb16  # noqa: E402


@kernel
def dot2_s8(m, lhs, rhs0, rhs1, cols, reps, out):
    """Two int8 dot products sharing one input vector, four columns per step (the shape of
    CMSIS-NN's DSP vector x matrix inner loop), repeated `reps` times."""
    rep = mov(m, reps)
    while True:
        acc0 = mov(m, 0)
        acc1 = mov(m, 0)
        a, w0, w1 = lhs, rhs0, rhs1
        count = mov(m, cols >> 2)
        while True:
            x = ldr(m, a)                       # LDR x, [a], #4
            a += 4
            x1 = sxtb16(m, x, 8)                # SXTB16 x1, x, ROR #8  (bytes 1, 3)
            x0 = sxtb16(m, x, 0)                # SXTB16 x0, x          (bytes 0, 2)
            k = ldr(m, w0)                      # LDR k, [w0], #4
            w0 += 4
            k1 = sxtb16(m, k, 8)
            k0 = sxtb16(m, k, 0)
            acc0 = smlad(m, k1, x1, acc0)       # acc0 += k[1]*x[1] + k[3]*x[3]
            acc0 = smlad(m, k0, x0, acc0)       # acc0 += k[0]*x[0] + k[2]*x[2]
            k = ldr(m, w1)                      # LDR k, [w1], #4
            w1 += 4
            k1 = sxtb16(m, k, 8)
            k0 = sxtb16(m, k, 0)
            acc1 = smlad(m, k1, x1, acc1)
            acc1 = smlad(m, k0, x0, acc1)
            count = sub(m, count, 1)            # SUBS count, count, #1
            more = count != 0
            bcc(m, more)                        # BNE
            if not more:
                break
        str_(m, out, acc0)
        str_(m, out + 4, acc1)
        rep = sub(m, rep, 1)
        again = rep != 0
        bcc(m, again)
        if not again:
            break
    return acc0, acc1


@kernel(inline=True)
def _row_step(m, w, x1, x0, acc):
    """One row's part of a step: LDR, two SXTB16, two SMLAD."""
    k = ldr(m, w)
    k1 = sxtb16(m, k, 8)
    k0 = sxtb16(m, k, 0)
    acc = smlad(m, k1, x1, acc)
    return smlad(m, k0, x0, acc)


@kernel
def dot2_s8_helpers(m, lhs, rhs0, rhs1, cols, reps, out):
    """`dot2_s8` with each row's part in an inlined helper taking the machine, as the
    CMSIS-NN ports write their inner loops: the same instructions in the same order."""
    rep = mov(m, reps)
    while True:
        acc0 = mov(m, 0)
        acc1 = mov(m, 0)
        a, w0, w1 = lhs, rhs0, rhs1
        count = mov(m, cols >> 2)
        while True:
            x = ldr(m, a)
            a += 4
            x1 = sxtb16(m, x, 8)
            x0 = sxtb16(m, x, 0)
            acc0 = _row_step(m, w0, x1, x0, acc0)
            w0 += 4
            acc1 = _row_step(m, w1, x1, x0, acc1)
            w1 += 4
            count = sub(m, count, 1)
            more = count != 0
            bcc(m, more)
            if not more:
                break
        str_(m, out, acc0)
        str_(m, out + 4, acc1)
        rep = sub(m, rep, 1)
        again = rep != 0
        bcc(m, again)
        if not again:
            break
    return acc0, acc1


def expected_counts(cols, reps):
    """The mnemonic counts the loop structure implies (the kernel must count exactly these)."""
    steps = cols // 4
    return {"ldr": 3 * steps * reps, "sxtb16": 6 * steps * reps, "smlad": 4 * steps * reps,
            "sub": (steps + 1) * reps, "bcc": (steps + 1) * reps, "mov": 1 + 3 * reps,
            "str": 2 * reps}


def setup(cols, seed=1, trace_loads=False):
    rng = np.random.default_rng(seed)
    lhs = rng.integers(-128, 128, cols, dtype=np.int8)
    rhs = rng.integers(-128, 128, (2, cols), dtype=np.int8)
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 0).region("flash", machine.FLASH_BASE, 0)
    a = mem.place("sram", lhs)
    w0 = mem.place("flash", rhs[0])
    w1 = mem.place("flash", rhs[1])
    out = mem.place("sram", 8)
    m = machine.build(mem, trace_loads=trace_loads)
    expect = rhs.astype(np.int64) @ lhs.astype(np.int64)
    return m, (a, w0, w1, out), expect


def measure(cols, reps, tracer=None, trace_loads=False, fn=dot2_s8):
    """Run `fn` once; returns (instructions, wall seconds, CPU seconds, counts).  CPU time is
    reported too because the machine's 2 cores are shared: wall time includes waiting."""
    m, (a, w0, w1, out), expect = setup(cols, trace_loads=trace_loads)
    t, c = time.perf_counter(), time.process_time()
    acc = run(fn, m, a, w0, w1, cols, reps, out, tracer=tracer)
    elapsed, cpu = time.perf_counter() - t, time.process_time() - c
    assert tuple(acc) == tuple(int(v) for v in expect), (acc, expect)
    counts = machine.counts(m)
    assert counts == expected_counts(cols, reps), counts
    return sum(counts.values()), elapsed, cpu, counts


_CHILD = """
import time, sys
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
from benchmarks.bench_machine import measure
t1 = time.perf_counter()
measure(64, 1)
t2 = time.perf_counter()
print(f"{{t1 - t0:.3f}} {{t2 - t1:.3f}}")
"""


def child_process(cache_dir):
    """Run a tiny problem in a new Python process using `cache_dir` as numba's cache;
    returns (wall seconds of the process, import seconds, first-run seconds)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _CHILD.format(root=str(ROOT))], env=env,
                         check=True, capture_output=True, text=True).stdout.split()
    return time.perf_counter() - t, float(out[0]), float(out[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cols", type=int, default=4096, help="columns (MACs per row)")
    parser.add_argument("--reps", type=int, default=2000, help="repetitions of the dot products")
    parser.add_argument("--repeat", type=int, default=5, help="counted runs (best is reported)")
    parser.add_argument("--traced-reps", type=int, default=10)
    parser.add_argument("--no-compile", action="store_true", help="skip the cold/warm process runs")
    parser.add_argument("--trace-loads", action="store_true",
                        help="machines that record the flash load trace (board cache models)")
    parser.add_argument("--helpers", action="store_true",
                        help="the kernel with its row steps in inlined helpers taking the "
                             "machine (dot2_s8_helpers), as the CMSIS-NN ports are written")
    args = parser.parse_args()
    fn = dot2_s8_helpers if args.helpers else dot2_s8

    measure(64, 1, trace_loads=args.trace_loads, fn=fn)  # compile or load, outside timing
    runs = [measure(args.cols, args.reps, trace_loads=args.trace_loads, fn=fn)
            for _ in range(args.repeat)]
    n, counts = runs[0][0], runs[0][3]
    wall, cpu = min(r[1] for r in runs), min(r[2] for r in runs)
    label = " (helpers)" * args.helpers + " (load trace)" * args.trace_loads
    print(f"counted run{label}: {n:,} instructions (smlad {counts['smlad']:,}, sxtb16 "
          f"{counts['sxtb16']:,}, ldr {counts['ldr']:,}; exact), best of {args.repeat}: "
          f"{n / wall / 1e6:,.0f} M instructions/s wall, {n / cpu / 1e6:,.0f} M/s CPU time")

    tracer = Tracer(limit=10**8)
    n_t, wall_t, cpu_t, _ = measure(args.cols, args.traced_reps, tracer=tracer)
    assert len(tracer.records) == n_t
    print(f"traced run  : {n_t:,} instructions recorded: {n_t / wall_t / 1e6:,.3f} M instructions/s "
          f"wall, {n_t / cpu_t / 1e6:,.3f} M/s CPU time")

    if not args.no_compile:
        with tempfile.TemporaryDirectory() as cache:
            cold, cold_import, cold_run = child_process(cache)
            warm, warm_import, warm_run = child_process(cache)
        print(f"first compile (empty NUMBA_CACHE_DIR): process {cold:.2f} s "
              f"(import {cold_import:.2f} s, compile + run {cold_run:.2f} s)")
        print(f"second process (warm cache)         : process {warm:.2f} s "
              f"(import {warm_import:.2f} s, load + run {warm_run:.2f} s)")


if __name__ == "__main__":
    main()
