"""The long differential campaign against TFLite Micro (issue 11): thousands of seeded,
structure-aware mutants of the shared models (and of person_detect.tflite when given), each run
by `armsim run` and by TFLM's Python interpreter (tests/tflm_diff.py, the same machinery as
tests/pipeline/test_fuzz_tflm.py).  Prints the count of each verdict, per mutation kind, and every
failure (traceback, hang, accept/reject disagreement outside the documented int8-spec refusals,
or different outputs) with the seed and index that reproduce it.

    python benchmarks/fuzz_campaign.py --mutants 3000 --seed 1 --models ad,kws,ic,vww
    python benchmarks/fuzz_campaign.py --minutes 20 --path simd
    python benchmarks/fuzz_campaign.py --extra /path/to/person_detect.tflite

person_detect.tflite (tensorflow/lite/micro/models/ in the tflite-micro repository,
Apache-2.0) is not shipped with armsim; pass a local copy with --extra.
"""
import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

import tflm_diff as td                       # noqa: E402
from armsim.pipeline import model, profiler  # noqa: E402
from model_helpers import shared_model       # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=None,
                    help="mutants in all (default 3000, or no limit with --minutes)")
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--models", default="ad,kws,ic,vww", help="shared model names")
    ap.add_argument("--extra", action="append", default=[], help="another .tflite file")
    ap.add_argument("--path", default="reference", choices=("simd", "scalar", "reference"))
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="seconds per TFLM run (TFLM loops without end on some mutants)")
    args = ap.parse_args()
    if args.mutants is None:
        args.mutants = 3000 if args.minutes is None else 10**9

    sources = [(name, shared_model(name).read_bytes()) for name in args.models.split(",") if name]
    sources += [(Path(p).stem, Path(p).read_bytes()) for p in args.extra]
    bases = {name: profiler.random_inputs(model.parse(data, f"{name}.tflite"))
             for name, data in sources}
    rng = np.random.default_rng(args.seed)
    workdir = tempfile.mkdtemp(prefix="armsim-fuzz-")
    for name, data in sources:                 # compiled once here, inherited by each fork
        for path in ("simd", "scalar", "reference"):
            td.warm_up(data, bases[name], workdir, path)
    for name, data in sources:                 # the unmutated models first, on every path
        print(f"{name}: " + ", ".join(
            f"{path} {td.compare(data, bases[name], workdir, path, args.timeout).status}"
            for path in ("simd", "scalar", "reference")), flush=True)
    verdicts, by_kind, failures = collections.Counter(), collections.defaultdict(
        collections.Counter), []
    start = time.monotonic()
    done, slowest = 0, (0.0, "")
    for k in range(args.mutants):
        if args.minutes is not None and time.monotonic() - start > 60 * args.minutes:
            break
        name, data = sources[k % len(sources)]
        kind, what, mutant = td.mutant(data, rng)
        inputs = td.inputs_for(mutant, bases[name], k)
        t0 = time.monotonic()
        v = td.compare(mutant, inputs, workdir, args.path, args.timeout)
        took = time.monotonic() - t0
        slowest = max(slowest, (took, f"#{k} {name} {kind} ({what})"))
        verdicts[v.status] += 1
        by_kind[kind][v.status] += 1
        done += 1
        if v.status.startswith("FAIL"):
            detail = v.detail.strip().splitlines()[-1] if v.detail.strip() else ""
            failures.append(f"#{k} {name} {kind} ({what}) [{took:.1f} s]: "
                            f"{v.status}: {detail[:400]}")
            print(failures[-1], flush=True)
    elapsed = time.monotonic() - start
    print(f"\n{done} mutants (seed {args.seed}, path {args.path}, models "
          f"{', '.join(n for n, _ in sources)}) in {elapsed / 60:.1f} min, "
          f"{elapsed / max(done, 1):.2f} s each; slowest {slowest[0]:.1f} s: {slowest[1]}")
    for status, n in verdicts.most_common():
        print(f"  {status:36s} {n:6d}")
    print("per mutation kind:")
    for kind in sorted(by_kind):
        print(f"  {kind:13s} " + ", ".join(f"{s} {n}" for s, n in by_kind[kind].most_common()))
    broken = {s: verdicts[f"FAIL:armsim-{s}"]
              for s in ("traceback", "multiline", "crashed", "hung")}
    print(f"armsim: tracebacks {broken['traceback']}, multi-line errors {broken['multiline']}, "
          f"crashes {broken['crashed']}, hangs {broken['hung']}; disagreements with TFLM "
          f"{len(failures) - sum(broken.values())}; TFLM itself crashed on "
          f"{verdicts['tflm-crashed']} and hung on {verdicts['tflm-hung']} (armsim refused "
          f"or ran those, see above)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
