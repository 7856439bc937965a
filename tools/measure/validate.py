"""Re-measure every case of ../shared/reference and diff every measured field against the
recorded one; also check the compiled kernel's output against the case's `output_ref`.

    python -m tools.measure.validate [--builds dsp_O2,scalar_O2] [--cases NAME,...] [--reference DIR]
    python -m tools.measure.validate --vectors [DIR]   # harness check on the CMSIS-NN vectors
    python -m tools.measure.validate --models [--ops N] # first ops of each MLPerf Tiny model

Prints one row per case and build: the fields that differ (recorded -> measured), or `equal`.
The README's erratum (avgpool2x2_s2_8x8x16 scalar_O2: 25,125 instructions / 33,049 cycles
with the set-up-translated `arm_avgpool_s8_get_buffer_size` counted) is checked field by
field and reported as such.
Exit status 1 if any unexplained difference remains."""
import argparse
import json
import sys
import time
from pathlib import Path

from .measure import DEFAULT_BUILDS, measure_case

SHARED = Path(__file__).resolve().parents[3] / "shared"
REFERENCE = SHARED / "reference"
VECTORS = SHARED / "cmsis_nn_vectors"
MODELS = SHARED / "models"
# ../shared/models/*/measured.json path -> build
MODEL_PATHS = {"simd": "dsp_O2", "scalar": "scalar_O2", "reference": "ref_O2"}
PASSTHROUGH = ("RESHAPE", "SQUEEZE")
# the interpreter's functions an op's count includes and the harness replaces
INTERPRETER = ("tflite::MicroInterpreterContext::GetEvalTensor", "tflite::MicroContextGetEvalTensor")


def _avgpool_scalar_erratum(rec):
    """The README's erratum: `arm_avgpool_s8` calls `arm_avgpool_s8_get_buffer_size` (mov, bx)
    whose first run was in the set-up, so the recorded run did not count it: the true record
    has those two instructions, their two taken branches (the call lands on the callee, the
    bx returns) and 25,125 instructions / 33,049 cycles."""
    fixed = json.loads(json.dumps(rec))
    callee = "arm_avgpool_s8_get_buffer_size"
    for key in ("instructions", "instructions_incl_condition_failed_it", "taken_branches"):
        fixed[key] += 2
    for name, cls in (("mov", "alu"), ("bx", "br")):
        fixed["mnemonic_histogram"][name] = fixed["mnemonic_histogram"].get(name, 0) + 1
        fixed["class_histogram"][cls] += 1
    fixed["functions"][callee] = 2
    fixed["calls"][f"arm_avgpool_s8->{callee}"] = 1
    fixed["cycles_trm"] = 33049
    assert fixed["instructions"] == 25125
    return fixed


# (case, build) -> the recorded entry corrected by the README's erratum
ERRATA = {("avgpool2x2_s2_8x8x16", "scalar_O2"): _avgpool_scalar_erratum}


def diff(recorded, measured, prefix=""):
    """[(field, recorded, measured)] for every leaf that differs."""
    out = []
    for key in sorted(set(recorded) | set(measured)):
        a, b = recorded.get(key), measured.get(key)
        name = f"{prefix}{key}"
        if isinstance(a, dict) and isinstance(b, dict) and key != "build":
            out += diff(a, b, name + ".")
        elif a != b:
            out.append((name, a, b))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", default=str(REFERENCE))
    ap.add_argument("--builds", default=",".join(DEFAULT_BUILDS))
    ap.add_argument("--cases", help="comma-separated case names (default: all)")
    ap.add_argument("--vectors", nargs="?", const=str(VECTORS),
                    help="instead: measure every CMSIS-NN test vector (no recorded counts) and "
                         "check the compiled kernels' output against its output_ref")
    ap.add_argument("--models", nargs="?", const=str(MODELS),
                    help="instead: measure the first operators of each MLPerf Tiny model (fed "
                         "input_0.npy) and compare every function with measured.json")
    ap.add_argument("--ops", type=int, default=2, help="with --models: how many operators")
    args = ap.parse_args(argv)
    if args.models:
        return check_models(Path(args.models), args.ops)
    builds = args.builds.split(",")
    files = sorted(Path(args.vectors or args.reference).glob("*.json"))
    if args.cases:
        wanted = set(args.cases.split(","))
        files = [f for f in files if f.stem in wanted]
    if args.vectors:
        return check_vectors(files, builds)
    bad = 0
    print(f"{'case':40s} {'build':10s} {'instructions':>12s} {'s':>5s}  result")
    for f in files:
        case = json.loads(f.read_text())
        t0 = time.time()
        try:
            res = measure_case(case, builds)
        except Exception as e:  # one line per failing case, the run goes on
            print(f"{case['case']:40s} {'-':10s} {'':>12s} {'':>5s}  ERROR {type(e).__name__}: {e}")
            bad += 1
            continue
        dt = (time.time() - t0) / len(builds)
        out_ok = all(case.get(k) == v for k, v in res["outputs"].items())
        for b in builds:
            rec = case["measured"][b]
            got = res["measured"][b]
            d = diff(rec, got)
            fix = ERRATA.get((case["case"], b))
            explained = bool(d) and fix is not None and not diff(fix(rec), got)
            if d and not explained:
                bad += 1
            text = "equal" if not d else ("erratum (README): " if explained else "DIFF: ") + \
                "; ".join(f"{n} {a} -> {c}" for n, a, c in d)
            if not out_ok:
                text += "; OUTPUT DIFFERS from output_ref"
                bad += 1
            print(f"{case['case']:40s} {b:10s} {got['instructions']:12d} {dt:5.1f}  {text}", flush=True)
    print(f"\n{len(files)} cases x {len(builds)} builds: "
          f"{'all fields equal (or the README erratum)' if not bad else f'{bad} unexplained differences'}")
    return 1 if bad else 0


def check_vectors(files, builds):
    """Every vector measured on `builds`: the entry point and the case's other
    functions_validated must write output_ref (the harnesses' check, family by family)."""
    bad = 0
    print(f"{'case':52s} {'family':20s} {'function':36s} {'instr':>9s}  result")
    for f in files:
        case = json.loads(f.read_text())
        try:
            res = measure_case(case, builds)
        except Exception as e:  # one line per failing case, the run goes on
            print(f"{case['case']:52s} {case['family']:20s} {case['function']:36s} {'':>9s}  "
                  f"ERROR {type(e).__name__}: {e}", flush=True)
            bad += 1
            continue
        ok = all(case.get(k) == v for k, v in res["outputs"].items() if k in case)
        bad += not ok
        n = res["measured"][builds[0]]["instructions"]
        print(f"{case['case']:52s} {case['family']:20s} {case['function']:36s} {n:9d}  "
              f"{'output_ref equal' if ok else 'OUTPUT DIFFERS'}", flush=True)
    print(f"\n{len(files)} vectors: {'all outputs equal' if not bad else f'{bad} failures'}")
    return 1 if bad else 0


def _plain(v):
    import numpy as np
    if isinstance(v, np.ndarray):
        return v.astype(int).ravel().tolist()
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return int(v) if isinstance(v, np.integer) else v


def model_cases(model_dir, n_ops):
    """The model's first `n_ops` operators as cases, each fed the output the previous one
    computed (armsim derives the parameters as TFLM's Prepare does; the model input is
    input_0.npy).  Yields (op index, case); stops at an op without a harness."""
    import numpy as np
    from armsim.model import load
    from armsim.prepare import prepare

    from .families import by_family
    model = load(model_dir / "model.tflite")
    values = {model.inputs[0]: np.load(model_dir / "input_0.npy").astype(int).ravel().tolist()}
    for step in prepare(model)[:n_ops]:
        if step.op in PASSTHROUGH:      # the data do not change: nothing to measure
            values[step.output] = values[next(iter(step.inputs.values()))]
            continue
        if step.family not in by_family() or not {"input"} <= set(step.inputs) <= {"input", "input2"}:
            return
        case = _plain(dict(step.case))
        case["case"] = f"{model_dir.name}_op{step.index}_{step.op}"
        for field, tensor in step.inputs.items():
            case[field] = values[tensor]
        case["tflite_shape"] = [int(d) for d in step.output_shape]   # TFLM's glue reads it
        case.pop("function", None)
        outputs = yield step.index, case
        values[step.output] = outputs["output_ref"]


def check_models(models, n_ops=2):
    """Per function, the first `n_ops` operators of each model against measured.json's
    functions_top (the interpreter's GetEvalTensor functions excluded: the harness stands in
    for them), on all three paths."""
    bad = 0
    for model_dir in sorted(p for p in models.iterdir() if (p / "measured.json").exists()):
        paths = json.loads((model_dir / "measured.json").read_text())["paths"]
        cases = model_cases(model_dir, n_ops)
        try:
            index, case = next(cases)
            while True:
                res = measure_case(case, list(MODEL_PATHS.values()))
                for path, build in MODEL_PATHS.items():
                    got = res["measured"][build]
                    op = paths[path]["ops"][index]
                    want = {f: n for f, n in op["functions_top"].items() if f not in INTERPRETER}
                    names = {f for f in want if f in got["functions"]} | set(got["functions"])
                    diffs = {f: (want.get(f), got["functions"].get(f)) for f in names
                             if want.get(f) != got["functions"].get(f)}
                    skipped = got["instructions_incl_condition_failed_it"] - got["instructions"]
                    if path == "reference" and skipped != op["skipped_it"]:
                        diffs["skipped_it"] = (op["skipped_it"], skipped)
                    bad += bool(diffs)
                    print(f"{case['case']:36s} {path:9s} {build:9s} {got['instructions']:10d}  "
                          + (f"DIFF {diffs}" if diffs else "every function equal"), flush=True)
                index, case = cases.send(res["outputs"])
        except StopIteration:
            pass
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
