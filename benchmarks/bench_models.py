"""armsim on the shared MLPerf Tiny models: speed of `armsim compare`, cycles per core, and
instructions / cycles / arena next to what the real TFLM + CMSIS-NN firmware executed.

    python benchmarks/bench_models.py [--models kws,vww,ic,ad] [--repeat 3] [--per-op]

1. Wall time of the `armsim compare MODEL` command (all three paths) in a fresh process, as
   a user runs it: the best of --repeat runs after one warm-up run that fills numba's cache.
2. Total cycles on cortex-m4 and cortex-m33, simd and scalar, for input_0.npy.
3. Per model and path: instructions (sum over ops; Invoke's own interpreter overhead is not
   simulated), cortex-m4 cycles against measured.json's `cycles_trm` (the same M4 TRM table
   applied to the measured trace), and the arena against `arena_used_bytes`.
   With --per-op, the same comparison for every op.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from armsim.pipeline import arena, prepare, profiler  # noqa: E402
from armsim.pipeline import model as model_mod  # noqa: E402
from armsim.pipeline.build import Build

MODELS = Path(os.environ.get("ARMSIM_MODELS", ROOT.parent / "shared" / "models"))
PATHS = ("simd", "scalar", "reference")


def compare_seconds(model_path, repeat):
    """Best wall time of `armsim compare` in a new process, after one warm-up run."""
    armsim = shutil.which("armsim") or sys.exit("the armsim command is not installed")
    times = []
    for _ in range(repeat + 1):
        t0 = time.perf_counter()
        subprocess.run([armsim, "compare", str(model_path)], check=True,
                       stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return times[0], min(times[1:])


def diff(ours, measured):
    return f"{100.0 * (ours / measured - 1):+6.1f}%" if measured else "     -"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="kws,vww,ic,ad")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--per-op", action="store_true", help="print every op's comparison")
    args = ap.parse_args()

    speed, cycles, comparisons, per_op = [], [], [], []
    for name in args.models.split(","):
        path = MODELS / name / "model.tflite"
        speed.append((name, *compare_seconds(path, max(args.repeat, 1))))
        model = model_mod.load(str(path))
        steps = prepare.prepare(model)
        measured = json.loads((path.parent / "measured.json").read_text())["paths"]
        x = np.load(path.parent / "input_0.npy")
        row = [name]
        for p in PATHS:
            for core in ("cortex-m4", "cortex-m33"):
                prof = profiler.run(model, Build(p, core=core), inputs=[x], steps=steps)
                if p != "reference":
                    row.append(prof.cycles)
                if core != "cortex-m4":
                    continue
                meas = measured[p]
                m_ops = {o["index"]: o for o in meas["ops"]}
                plan = arena.plan(model, steps, Build(p))
                comparisons.append((name, p, prof.instructions,
                                    sum(o["instructions"] for o in meas["ops"]), prof.cycles,
                                    sum(o["cycles_trm"] for o in meas["ops"]),
                                    plan.total, meas["arena_used_bytes"]))
                for o in prof.ops:
                    q = m_ops[o.index]
                    per_op.append((name, p, o.index, o.op, o.instructions, q["instructions"],
                                   o.cycles, q["cycles_trm"]))
        cycles.append(row)

    print("armsim compare MODEL (all three paths), wall seconds")
    print(f"{'model':6s} {'first run':>10s} {'warm best':>10s}")
    for name, first, best in speed:
        print(f"{name:6s} {first:10.2f} {best:10.2f}")

    print("\ntotal cycles for input_0.npy (100 MHz, 0 wait states)")
    print(f"{'model':6s} {'simd M4':>12s} {'simd M33':>12s} {'scalar M4':>12s} "
          f"{'scalar M33':>12s}")
    for name, *c in cycles:
        print(f"{name:6s} " + " ".join(f"{v:12,d}" for v in c))

    print("\narmsim vs measured firmware (instructions, cortex-m4 cycles vs cycles_trm, arena)")
    print(f"{'model':6s} {'path':9s} {'instr':>12s} {'measured':>12s} {'diff':>7s} "
          f"{'cycles':>12s} {'measured':>12s} {'diff':>7s} {'arena':>8s} {'measured':>8s} "
          f"{'diff':>7s}")
    for name, p, i, mi, c, mc, a, ma in comparisons:
        print(f"{name:6s} {p:9s} {i:12,d} {mi:12,d} {diff(i, mi)} {c:12,d} {mc:12,d} "
              f"{diff(c, mc)} {a:8,d} {ma:8,d} {diff(a, ma)}")

    worst = {}
    for name, p, idx, op, i, mi, c, mc in per_op:
        key = (name, p)
        if key not in worst or abs(i / mi - 1) > abs(worst[key][2] / worst[key][3] - 1):
            worst[key] = (idx, op, i, mi)
    print("\nworst op per model and path (instructions)")
    for (name, p), (idx, op, i, mi) in worst.items():
        print(f"{name:6s} {p:9s} op {idx:2d} {op:18s} {i:12,d} {mi:12,d} {diff(i, mi)}")

    if args.per_op:
        print("\nper op")
        print(f"{'model':6s} {'path':9s} {'#':>3s} {'op':18s} {'instr':>11s} {'measured':>11s} "
              f"{'diff':>7s} {'cycles':>11s} {'measured':>11s} {'diff':>7s}")
        for name, p, idx, op, i, mi, c, mc in per_op:
            print(f"{name:6s} {p:9s} {idx:3d} {op:18s} {i:11,d} {mi:11,d} {diff(i, mi)} "
                  f"{c:11,d} {mc:11,d} {diff(c, mc)}")


if __name__ == "__main__":
    main()
