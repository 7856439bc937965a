"""Does a smaller traced problem take every branch the whole one takes?  For each vector case
of the families tests/cpu/test_trace_equivalence.py shrinks (`_fewer_iterations`), on each
path, trace the problem that test traced before (the whole case, or its `_reduced` copy past
1.2 M instructions) and the smaller one, and compare the sets of (function, line, op, branch
taken) the two runs execute.  Prints one line per case and path, and what is lost if
anything; exits non-zero if anything is.  Slow (it traces the whole cases):

    PYTHONPATH=$PWD python tools/trace_coverage.py [CASE ...]
"""
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path[:0] = [str(TESTS), str(TESTS / "cpu")]

from conftest import VECTORS, load_case, shared_cases  # noqa: E402
import test_trace_equivalence as te  # noqa: E402
from armsim.cpu.kernel import Tracer  # noqa: E402
from armsim.pipeline import harness  # noqa: E402
from armsim.pipeline.build import PATHS, Build  # noqa: E402

OLD_CAP = 1_200_000             # the traced-run cap before the problems were shrunk


def coverage(case, path):
    """The (function, line, op[, taken]) a traced run executes, and its length."""
    tracer = Tracer(limit=10 ** 9)
    harness.run_case(case, Build(path), tracer=tracer)
    return {(r.function, r.line, r.op) + ((bool(r.operands[0]),)
                                          if r.op in ("bcc", "cbz", "cbnz") else ())
            for r in tracer.records}, len(tracer.records)


def main(names):
    files = [VECTORS / f"{n}.json" for n in names] if names else shared_cases(VECTORS)
    lost_any = False
    for file in files:
        case = load_case(file)
        for path in PATHS:
            small = te._fewer_iterations(case, path)
            if small is case:
                continue
            before = case
            if harness.run_case(case, Build(path)).instructions > OLD_CAP:
                before = te._reduced(case)
            after = small
            if harness.run_case(small, Build(path)).instructions > te.TRACE_CAP:
                after = te._reduced(small)
            start = time.time()
            old, n_old = coverage(before, path)
            new, n_new = coverage(after, path)
            lost = old - new
            lost_any |= bool(lost)
            print(f"{file.stem} {path}: {n_old} -> {n_new} instructions traced, "
                  f"{len(old)} -> {len(new)} sites, {len(lost)} lost "
                  f"({time.time() - start:.0f} s)", flush=True)
            for site in sorted(lost, key=str):
                print(f"    lost {site}")
    return 1 if lost_any else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
