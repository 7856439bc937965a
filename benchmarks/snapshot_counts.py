"""Every count, cycle and output armsim produces on ../shared, as one JSON, to prove that a
change which should change nothing (a refactoring) changed nothing.

    python benchmarks/snapshot_counts.py --collect MODELS_DIR      # once, before the change
    python benchmarks/snapshot_counts.py OUT.json [--only cases|models] [--models-from MODELS_DIR]
    python benchmarks/snapshot_counts.py --diff BEFORE.json AFTER.json

What it records:
- every case file of ../shared/cmsis_nn_vectors and ../shared/reference whose family armsim
  ports, on the simd, scalar and reference paths (simd and scalar also through the case's own
  `function` where that is not the wrapper): the kernel chain, instructions, the
  per-mnemonic histogram and its fitted part, cortex-m4 and cortex-m7 cycles, and a digest
  of the output (or the one-line error);
- the four MLPerf Tiny models of ../shared/models and the bundled examples
  (`armsim.data.modelgen.EXAMPLES`) on all three paths with the seeded random input: the
  `armsim profile --json` dict (per op: kernel, instructions, mnemonics, fitted mnemonics,
  cycles, stages), a digest of every graph output, the arena plan and the lint findings;
- with --models-from, the same for every .tflite file of that directory.

`--collect DIR` gathers the models the test suite builds (every op armsim runs, with the
shapes, types and options the tests chose) into DIR as `<digest>.tflite`: it runs the tests
that build models with the model decoder recording each model it decodes and the runners
stopping the test there (so it takes minutes, not the suite's time).  Collect once, at the
commit before the change, and snapshot that same directory before and after.

`--diff` prints every path where two snapshots differ and exits non-zero if any does.
"""
import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from armsim.cpu import cores  # noqa: E402
from armsim.kernels import families  # noqa: E402
from armsim.pipeline import harness  # noqa: E402
from armsim import api  # noqa: E402
from armsim.pipeline import arena, prepare, profiler
from armsim.analysis import lint
from armsim.data import modelgen
from armsim.pipeline import model as model_mod  # noqa: E402
from armsim.pipeline.build import Build

SHARED = ROOT.parent / "shared"
CASE_DIRECTORIES = (SHARED / "cmsis_nn_vectors", SHARED / "reference")
MODELS = SHARED / "models"
PATHS = ("simd", "scalar", "reference")
CORES = ("cortex-m4", "cortex-m7")


def digest(array):
    """dtype, shape and a hash of the bytes: equal exactly when the outputs are."""
    a = np.ascontiguousarray(array)
    return f"{a.dtype}{list(a.shape)}:{hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def _error(e):
    return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def case_runs(case):
    """(label, path, function) of every run of one case."""
    module = families.family(case["family"])
    functions = [None]
    if case.get("function") in getattr(module, "FUNCTIONS", ())[1:]:
        functions.append(case["function"])
    for path in PATHS:
        for function in functions if path != "reference" else [None]:
            yield (path if function is None else f"{path}:{function}"), path, function


def snapshot_case(case):
    out = {}
    for label, path, function in case_runs(case):
        try:
            r = harness.run_case(case, Build(path), function=function)
        except Exception as e:                      # noqa: BLE001 (recorded, compared)
            out[label] = {"error": _error(e)}
            continue
        out[label] = {"chain": list(r.kernel_path), "instructions": r.instructions,
                      "mnemonics": dict(sorted(r.counts().items())),
                      "fitted": dict(sorted(r.fitted_counts().items())),
                      "cycles": {core: cores.cycles(r.m, core, region_names=r.region_names)
                                 for core in CORES},
                      "output": digest(r.output)}
    return out


def snapshot_cases():
    out = {}
    for directory in CASE_DIRECTORIES:
        for file in sorted(directory.glob("*.json")):
            case = json.loads(file.read_text())
            if case.get("family") not in families.FAMILIES:
                continue
            key = f"{directory.name}/{file.stem}"
            print(key, file=sys.stderr, flush=True)
            out[key] = snapshot_case(case)
    return out


def snapshot_model(source):
    model = api.load_model(source)
    try:
        steps = prepare.prepare(model)
    except Exception as e:                          # noqa: BLE001
        return {"error": _error(e)}
    out = {"lint": [str(f) for f in lint.lint(model)]}
    for path in PATHS:
        try:
            prof = profiler.run(model, Build(path), steps=steps)
            plan = arena.plan(model, steps, Build(path))
        except Exception as e:                      # noqa: BLE001
            out[path] = {"error": _error(e)}
            continue
        data = prof.to_json(plan.total)
        data["outputs"] = [digest(x) for x in prof.outputs]
        out[path] = data
    return out


def snapshot_models(models_from=None):
    sources = {f"shared/{d.name}": str(d / "model.tflite")
               for d in sorted(MODELS.iterdir()) if (d / "model.tflite").is_file()}
    sources.update({f"example/{name}": name for name in modelgen.EXAMPLES})
    if models_from:
        sources.update({f"collected/{f.stem}": str(f)
                        for f in sorted(Path(models_from).glob("*.tflite"))})
    out = {}
    for key, source in sources.items():
        print(key, file=sys.stderr, flush=True)
        out[key] = snapshot_model(source)
    return out


#: the test files that build models
COLLECT_FROM = ("ops/test_*.py", "pipeline/test_*.py", "data/test_examples.py",
                "analysis/test_insight.py", "analysis/test_lint.py", "cpu/test_stages.py")
LARGEST_COLLECTED = 4 << 20


class _Collected(Exception):
    """Raised by the runners while collecting: the test has built its model."""


class _CollectPlugin:
    """Records every model `armsim.pipeline.model` decodes; the runners raise instead of running."""

    def __init__(self, directory):
        self.directory = Path(directory)

    def pytest_configure(self, config):
        from armsim.pipeline import harness as harness_mod
        decode = model_mod._decode

        def recording_decode(buf, path, name):
            decoded = decode(buf, path, name)
            if len(buf) <= LARGEST_COLLECTED:
                data = bytes(buf)
                digest_ = hashlib.sha256(data).hexdigest()[:20]
                (self.directory / f"{digest_}.tflite").write_bytes(data)
            return decoded

        def stop(*args, **kwargs):
            raise _Collected()

        model_mod._decode = recording_decode
        profiler.run = harness_mod.run_step = harness_mod.run_case = stop


def collect(directory, pytest_args):
    import pytest
    Path(directory).mkdir(parents=True, exist_ok=True)
    files = sorted({str(f) for pattern in COLLECT_FROM for f in (ROOT / "tests").glob(pattern)})
    pytest.main(["-q", "-p", "no:cacheprovider", *files,
                 *pytest_args], plugins=[_CollectPlugin(directory)])
    print(f"{len(list(Path(directory).glob('*.tflite')))} models in {directory}")


def differences(a, b, where=""):
    """Every path at which two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                yield f"{where}/{key}: only in {'after' if key in b else 'before'}"
            else:
                yield from differences(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for k, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, f"{where}[{k}]")
    elif a != b:
        yield f"{where}: {json.dumps(a)[:200]} -> {json.dumps(b)[:200]}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", help="the snapshot JSON to write")
    ap.add_argument("--only", choices=("cases", "models"), help="one half of the snapshot")
    ap.add_argument("--models-from", metavar="DIR", help="also every .tflite file of DIR")
    ap.add_argument("--collect", metavar="DIR",
                    help="gather the models the tests build into DIR instead")
    ap.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"),
                    help="compare two snapshots instead")
    args, pytest_args = ap.parse_known_args()
    if args.collect:
        collect(args.collect, pytest_args)
        return
    if pytest_args:
        ap.error(f"unrecognized arguments: {' '.join(pytest_args)}")
    if args.diff:
        before, after = (json.loads(Path(p).read_text()) for p in args.diff)
        found = list(differences(before, after))
        for line in found:
            print(line)
        print(f"{len(found)} difference(s)" if found else "identical")
        sys.exit(1 if found else 0)
    if not args.out:
        ap.error("give OUT.json or --diff BEFORE AFTER")
    os.environ.setdefault("ARMSIM_JOBS", "1")
    os.environ.pop(api.MODELS_ENV, None)         # a name is the bundled example
    snapshot = {}
    if args.only != "models":
        snapshot["cases"] = snapshot_cases()
    if args.only != "cases":
        snapshot["models"] = snapshot_models(args.models_from)
    Path(args.out).write_text(json.dumps(snapshot, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
