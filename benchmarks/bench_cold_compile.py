"""Cold numba compile cost of kernel families: each family's first case run on each path in
a fresh process with an empty cache (ARMSIM_CACHE_DIR set to a new temporary directory),
reported as the child's user + system CPU seconds (wall time on a shared machine says
little).  A family's figure includes the kernels it shares with families run before it
in the same process only if they were not compiled yet, so run one family per call to
see its whole cost, or several in a row to see what each adds.

    python benchmarks/bench_cold_compile.py transpose_conv svdf svdf_state_s16

Figures (2026-11-23, 2-core VM shared with other jobs), the command above: transpose_conv
47 s (simd: the wrapper with both of its paths, arm_convolve_s8 and its GEMM kernels,
libc) + 5 s (reference), svdf 14 + 2 s, svdf_state_s16 6 + 0 s (the reference kernel is
svdf's); total 73 s user + 3 s system CPU.

    python benchmarks/bench_cold_compile.py maxpool fully_connected transpose pad maximum \
        minimum batch_matmul

(2026-11-23, same VM; maxpool and fully_connected first so that the machine ops, libc and
arm_nn_vec_mat_mult_t_s8 are compiled): what the issue-9 ops add, simd + reference:
transpose 4.3 + 2.8 s, pad 4.6 + 0.9 s, maximum 7.1 + 0.5 s, minimum 5.9 + 1.4 s,
batch_matmul 15.3 + 2.2 s (arm_batch_matmul_s8, the TFLM BatchMatMul and
MultiplyByQuantizedMultiplier); 45 s CPU in all.  The scalar path runs the simd build's compiled
code (`m.dsp` is a runtime flag).

    python benchmarks/bench_cold_compile.py maxpool fully_connected lstm

(2026-11-23, same VM): lstm adds 26.9 s (simd: arm_lstm_unidirectional_s8 and its eight
callees, both builds' code) + 12.8 s (reference: TFLM's EvalLstm int8x8_16 with its ten
callees); 64 s user + 2 s system CPU in all.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
PATHS = ("simd", "reference")

CHILD = f"""
import json, sys, time
from armsim.pipeline.build import Build
from armsim.pipeline.harness import run_case
for path in sys.argv[1:]:
    case = json.loads(open(path).read())
    for build in {PATHS!r}:
        t0 = time.process_time()
        run_case(case, Build(build))
        print(case["family"], build, round(time.process_time() - t0, 1), flush=True)
"""


def first_case(family):
    for directory in ("reference", "cmsis_nn_vectors"):
        for p in sorted((SHARED / directory).glob("*.json")):
            if json.loads(p.read_text())["family"] == family:
                return p
    sys.exit(f"no case of family {family!r} in {SHARED}")


def main(families):
    files = [str(first_case(f)) for f in families]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ARMSIM_CACHE_DIR=cache)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", CHILD, *files], env=env, check=True, cwd=ROOT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"total: {after.ru_utime - before.ru_utime:.0f} s user + "
          f"{after.ru_stime - before.ru_stime:.0f} s system CPU")


if __name__ == "__main__":
    main(sys.argv[1:] or ["transpose_conv", "svdf", "svdf_state_s16"])
