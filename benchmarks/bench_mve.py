"""Simulation speed of the MVE ops (armsim.cpu.ops_mve) in a counted kernel.

    python benchmarks/bench_mve.py [--elements N] [--repeat R]

A tail-predicated int8 dot product the way CMSIS-NN's MVE kernels lower it (WLSTP.8, then per
16 elements VLDRB.U8 x2, VMLAVA.S8, VADDVA.S8, LETP), compiled with numba and warm; prints
the simulated MVE instructions and MACs per second of CPU time (best of R).  Figures only,
no thresholds.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from armsim.cpu import isa_mve  # noqa: E402
from armsim.cpu.kernel import kernel, run  # noqa: E402
from armsim.cpu.machine import SRAM_BASE, Memory, build, counts  # noqa: E402
from armsim.cpu.ops_mve import letp, vaddva_s8, vldrb_u8, vmlava_s8, wlstp_8  # noqa: E402


@kernel
def dot_s8(m, lhs, rhs, n, lhs_offset):
    """sum(lhs * rhs) + lhs_offset * sum(rhs) over n int8 elements."""
    acc = 0
    rhs_sum = 0
    wlstp_8(m, n == 0)
    remaining = n
    k = 0
    while remaining > 0:
        p = isa_mve.tail_mask(remaining, 8)
        a = vldrb_u8(m, lhs + 16 * k, p)
        b = vldrb_u8(m, rhs + 16 * k, p)
        acc = vmlava_s8(m, acc, a, b, p)
        rhs_sum = vaddva_s8(m, rhs_sum, b, p)
        remaining -= 16
        k += 1
        letp(m, remaining > 0)
    return acc + lhs_offset * rhs_sum


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=1 << 20)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    lhs = rng.integers(-128, 128, args.elements).astype(np.int8)
    rhs = rng.integers(-128, 128, args.elements).astype(np.int8)
    layout = Memory()
    layout.region("sram", SRAM_BASE, 0)
    a, b = layout.place("sram", lhs), layout.place("sram", rhs)
    expected = int(lhs.astype(np.int64) @ rhs) + 3 * int(rhs.sum())
    run(dot_s8, build(layout), a, b, 64, 3)                          # compile
    best = float("inf")
    for _ in range(args.repeat):
        m = build(layout)
        start = time.process_time()
        result = run(dot_s8, m, a, b, args.elements, 3)
        best = min(best, time.process_time() - start)
    assert result == expected
    instructions = sum(counts(m).values())
    print(f"{instructions:,} MVE-loop instructions for {args.elements:,} MACs, best of "
          f"{args.repeat}: {instructions / best / 1e6:.1f} M instructions/s, "
          f"{args.elements / best / 1e6:.0f} M MACs/s (CPU time)")


if __name__ == "__main__":
    main()
