"""Per-model timing of armsim on the shared models, and each model's total cycles.

    python benchmarks/bench_models.py [--models kws,vww,ic,ad] [--repeat 2]

For every model: wall time of `armsim compare` (all three paths, warm numba cache: the
first repetition also compiles, the best of the later ones is reported), then total
cycles on cortex-m4 and cortex-m33 for the simd and scalar paths, and the instruction
totals next to measured.json's (sum over ops; Invoke's own overhead is not simulated).
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from armsim import model as model_mod  # noqa: E402
from armsim import prepare, profile  # noqa: E402
from cli.main import main  # noqa: E402

MODELS = Path(os.environ.get("ARMSIM_MODELS", ROOT.parent / "shared" / "models"))


def main_():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="kws,vww,ic,ad")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    rows = []
    for name in args.models.split(","):
        path = MODELS / name / "model.tflite"
        times = []
        for _ in range(max(args.repeat, 1)):
            t0 = time.perf_counter()
            r = CliRunner().invoke(main, ["compare", str(path)])
            times.append(time.perf_counter() - t0)
            if r.exit_code != 0:
                print(r.output)
                raise SystemExit(f"{name}: compare failed")
        m = model_mod.load(str(path))
        steps = prepare.prepare(m)
        measured = json.loads((path.parent / "measured.json").read_text())["paths"]
        import numpy as np
        x = np.load(path.parent / "input_0.npy")
        cyc, instr = {}, {}
        for p in ("simd", "scalar"):
            for core in ("cortex-m4", "cortex-m33"):
                prof = profile.run(m, p, core=core, inputs=[x], steps=steps)
                cyc[(p, core)] = prof.cycles
                instr[p] = prof.instructions
        best = min(times[1:]) if len(times) > 1 else times[0]
        rows.append((name, times[0], best, cyc, instr, measured))
    print(f"{'model':6s} {'compare first (s)':>17s} {'compare warm (s)':>16s} "
          f"{'simd M4':>12s} {'simd M33':>12s} {'scalar M4':>12s} {'scalar M33':>12s} "
          f"{'simd instr (meas)':>24s} {'scalar instr (meas)':>24s}")
    for name, first, best, cyc, instr, meas in rows:
        print(f"{name:6s} {first:17.2f} {best:16.2f} "
              f"{cyc[('simd', 'cortex-m4')]:12,d} {cyc[('simd', 'cortex-m33')]:12,d} "
              f"{cyc[('scalar', 'cortex-m4')]:12,d} {cyc[('scalar', 'cortex-m33')]:12,d} "
              f"{instr['simd']:>11,d} ({_ops_total(meas['simd']):>10,d}) "
              f"{instr['scalar']:>11,d} ({_ops_total(meas['scalar']):>10,d})")


def _ops_total(measured_path):
    """Measured instructions of the ops (Invoke's interpreter overhead excluded)."""
    return sum(o["instructions"] for o in measured_path["ops"])


if __name__ == "__main__":
    main_()
