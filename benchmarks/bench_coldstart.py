"""What a user waits for: the first run (numba compiling the kernels), later runs, and the
simulation speed once compiled.

    python benchmarks/bench_coldstart.py [--models kws,vww,ic,ad] [--families] [--repeat 3]
                                         [--rates-only] [--board ek-ra6m4]

1. `armsim profile` (the bundled example) in a fresh process on a fresh, empty cache
   directory (ARMSIM_CACHE_DIR): wall seconds and CPU seconds (user + system of the process;
   the machine may be shared, CPU time is what the compile costs), then the same command on
   the now warm cache (best of --repeat).
2. With --models: the first `armsim profile MODEL` of each shared MLPerf Tiny model, each on
   its own empty cache, and its warm run.
3. With --families: compile CPU seconds per kernel family: one fresh process per family on
   an empty cache runs the family's first ../shared/cmsis_nn_vectors case on the simd,
   scalar and reference paths; minus the same process on the warm cache (imports and the
   run itself).
4. Simulated instructions per second per path on whole models (warm, in this process,
   best of --repeat): the example, and the shared models given with --models; the last
   row of each prices the simd path on --board (default ek-ra6m4), whose caches need the
   load trace recorded in the counted run (issue 12 asks for >= 300 M instructions/s); the
   "together" rows: all of --models' instructions over the sum of their best times.
   --rates-only skips sections 1-3.
No thresholds: figures only (issue 14 asks for a first profile <= 30 s, <= 60 s per MLPerf
Tiny model, a warm profile <= 0.5 s and >= 300 M instructions/s counted).
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MODELS = Path(os.environ.get("ARMSIM_MODELS", ROOT.parent / "shared" / "models"))
VECTORS = ROOT.parent / "shared" / "cmsis_nn_vectors"
PATHS = ("simd", "scalar", "reference")


def timed(command, cache):
    """(wall s, CPU s) of `command` in a new process using cache directory `cache`."""
    env = dict(os.environ, ARMSIM_CACHE_DIR=str(cache))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold_and_warm(command, repeat):
    """First run on an empty cache, then the best warm run: ((wall, cpu), (wall, cpu))."""
    cache = Path(tempfile.mkdtemp(prefix="armsim-bench-cache-"))
    try:
        cold = timed(command, cache)
        warm = min(timed(command, cache) for _ in range(repeat))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return cold, warm


FAMILY_RUN = """
import json, sys
from armsim.pipeline import harness
from armsim.pipeline.build import Build
case = json.load(open(sys.argv[1]))
for path in ("simd", "scalar", "reference"):
    harness.run_case(case, Build(path))
"""


def family_compile_seconds(repeat):
    from armsim.kernels.families import FAMILIES
    first = {}
    for case in sorted(VECTORS.glob("*.json")):
        family = json.loads(case.read_text()).get("family")
        if family in FAMILIES and family not in first:
            first[family] = case
    rows = []
    for family, case in sorted(first.items()):
        (cold_wall, cold_cpu), (_, warm_cpu) = cold_and_warm(
            [sys.executable, "-c", FAMILY_RUN, str(case)], repeat)
        rows.append((family, case.name, cold_cpu - warm_cpu, cold_wall))
    return rows


def instructions_per_second(model, steps, repeat, board):
    """Per path, and for the simd path priced on `board` (its cache models replay the load
    trace the counted run records): instructions and the best seconds of `profiler.run`."""
    from armsim.data import boards
    from armsim.pipeline import profiler
    from armsim.pipeline.build import Build
    configuration = boards.configure(board)
    runs = [(path, Build(path), {}) for path in PATHS] + [
        (f"simd, {board}", Build("simd", core=configuration.core), {"board": configuration})]
    rows = []
    for label, build, options in runs:
        profile = profiler.run(model, build, steps=steps, **options)    # compiled, cached
        best = min(_seconds(profiler.run, model, build, steps, options) for _ in range(repeat))
        rows.append((label, profile.instructions, best))
    return rows


def _seconds(fn, model, build, steps, options):
    t0 = time.perf_counter()
    fn(model, build, steps=steps, **options)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="", help="shared MLPerf Tiny models, e.g. kws,vww,ic,ad")
    ap.add_argument("--families", action="store_true", help="compile time per kernel family")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rates-only", action="store_true",
                    help="only the simulated instructions per second (section 4)")
    ap.add_argument("--board", default="ek-ra6m4",
                    help="the board whose memory model prices the last rate row (load trace)")
    args = ap.parse_args()
    armsim = shutil.which("armsim") or sys.exit("the armsim command is not installed")
    models = [m for m in args.models.split(",") if m]

    if not args.rates_only:
        print("first run on an empty cache, then warm (fresh processes; CPU = user + system)")
        print(f"{'command':28s} {'cold wall':>10s} {'cold CPU':>9s} {'warm wall':>10s} "
              f"{'warm CPU':>9s}")
        for label, command in [("armsim profile", [armsim, "profile"])] + [
                (f"armsim profile {m}", [armsim, "profile", str(MODELS / m / "model.tflite")])
                for m in models]:
            (cw, cc), (ww, wc) = cold_and_warm(command, args.repeat)
            print(f"{label:28s} {cw:9.1f}s {cc:8.1f}s {ww:9.2f}s {wc:8.2f}s")

    if args.families and not args.rates_only:
        print("\ncompile CPU per kernel family (first vector case, simd + scalar + reference)")
        for family, case, cpu, wall in family_compile_seconds(args.repeat):
            print(f"{family:18s} {case:32s} {cpu:7.1f} s CPU ({wall:.1f} s wall)")

    from armsim.pipeline import model as model_mod, prepare
    from armsim.data import modelgen
    print("\nsimulated instructions per second, warm, whole models")
    print(f"{'model':8s} {'path':20s} {'instructions':>13s} {'M instr/s':>10s}")
    targets = [("example", model_mod.parse(modelgen.example_model(seed=0), "example.tflite"))]
    targets += [(m, model_mod.load(str(MODELS / m / "model.tflite"))) for m in models]
    together = {}                      # path -> [instructions, seconds] over --models
    for name, model in targets:
        steps = prepare.prepare(model)
        for path, instructions, seconds in instructions_per_second(model, steps, args.repeat,
                                                                   args.board):
            print(f"{name:8s} {path:20s} {instructions:13,d} {instructions / seconds / 1e6:10.0f}")
            if name != "example":
                row = together.setdefault(path, [0, 0.0])
                row[0] += instructions
                row[1] += seconds
    for path, (instructions, seconds) in together.items():
        print(f"{'together':8s} {path:20s} {instructions:13,d} {instructions / seconds / 1e6:10.0f}")


if __name__ == "__main__":
    main()
