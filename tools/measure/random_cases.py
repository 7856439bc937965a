"""Seeded random-shape cases of a family, measured on both gcc builds, written as JSON in
../shared/reference's schema (committed as test data under tests/data/measured/<family>/).

    python -m tools.measure.random_cases FAMILY --count N --seed S --out DIR [--builds ...]

Case i uses numpy.random.default_rng([S, i]) and cycles through the family's dispatch
branches (`VARIANTS` of its module in families/) and the size classes tiny / odd / medium, so
`--count` >= 3 x the number of variants covers every branch at every size.  output_ref is what
the compiled kernel wrote (identical in every build, TFLM's reference kernels included); when
armsim is importable it is also checked against armsim's numpy oracle (independent of the
kernels), and the case says so."""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from .builds import CMSIS_NN_COMMIT
from .cgen import CaseError
from .families import by_family, harness_for
from .families._common import SIZES
from .measure import DEFAULT_BUILDS, measure_case

DESCRIPTION = (
    "Measurements made by compiling this CMSIS-NN commit with GCC (arm-none-eabi-gcc 12.2, "
    "bare metal, full newlib) for Cortex-M4 with the DSP extension and for Cortex-M3 (plain C), "
    "and executing the API call instruction by instruction on an emulated Cortex-M4 / Cortex-M3 "
    "core (armsim tools/measure, the method of ../shared/reference); ref_O2: TFLite Micro's "
    "reference kernels (the operator's Eval from tflite-micro 90b983c, arm-none-eabi-g++ 12.2 -O2, "
    "Cortex-M4), counted from the Eval's entry. output_ref is the output the compiled kernel "
    "wrote; it is bit-identical in every build. Shapes and data are random (seeded), not taken "
    "from a TFLite model.")


def case_name(mod, family, variant, size, case):
    """<family>_<variant>_<size>_<shape>: the module's `shape_tag`, else the input shape."""
    if hasattr(mod, "shape_tag"):
        shape = mod.shape_tag(case)
    else:
        d = case.get("input_dims", {})
        shape = "x".join(str(d[k]) for k in "nhwc" if k in d)
    return f"{family}_{variant}_{size}_{shape}".rstrip("_")


def oracle_check(case):
    """True/False: output_ref equals armsim's numpy oracle; None: no oracle available."""
    try:
        from armsim.kernels.oracle import oracle
    except ImportError:
        return None
    try:
        want = oracle(case)
    except ValueError:
        return None
    return bool(np.array_equal(np.asarray(case["output_ref"]), want))


def make_case(family, index, seed, builds):
    mod = by_family()[family]
    variants = mod.VARIANTS[family]
    variant = variants[index % len(variants)]
    size = SIZES[(index // len(variants)) % len(SIZES)]
    rng = np.random.default_rng([seed, index])
    body = mod.random_case(family, variant, size, rng)
    entry = body.pop("function", None) or harness_for({**body, "family": family, "case": "?"}).entry
    validated = [entry]
    dispatched = mod.dispatch({**body, "family": family}) if hasattr(mod, "dispatch") else None
    kernel = dispatched or ("arm_fully_connected_s8" if entry == "arm_fully_connected_wrapper_s8"
                            else None)
    try:   # the dispatched kernel is validated too when it takes the entry point's arguments
        if kernel and kernel != entry:
            harness_for({**body, "family": family, "case": "?"}, entry, [kernel])
            validated.append(kernel)
    except CaseError:
        pass
    case = {"schema_version": 1, "case": f"{case_name(mod, family, variant, size, body)}_s{seed}_{index:02d}",
            "family": family, "function": entry, "functions_validated": validated,
            "source": {"repository": "ARM-software/CMSIS-NN", "commit": CMSIS_NN_COMMIT,
                       "kind": "measured", "description": DESCRIPTION,
                       "data_seed": [seed, index],
                       "generator": f"tools/measure/random_cases.py {family} --seed {seed}",
                       "variant": variant, "size": size}}
    if dispatched:
        case["wrapper_dispatch"] = dispatched
    case.update(body)
    res = measure_case(case, builds)
    for b, m in res["measured"].items():
        if dispatched and b in DEFAULT_BUILDS and m["kernel_chain"][1] != dispatched:
            raise RuntimeError(f"{case['case']}: {b} dispatched to {m['kernel_chain'][1]}, "
                               f"the rule says {dispatched}")
    case.update(res["outputs"])
    ok = oracle_check(case)
    if ok is False:
        raise RuntimeError(f"{case['case']}: the compiled kernel's output differs from armsim's numpy oracle")
    case["source"]["description"] += (" output_ref also equals armsim's numpy oracle "
                                      "(armsim/kernels/oracle*.py)." if ok else
                                      " No independent oracle was run on this case.")
    case["measured"] = res["measured"]
    return case


def default_builds(mod, family):
    return list(DEFAULT_BUILDS) + (["ref_O2"] if family in getattr(mod, "REF_FAMILIES", ()) else [])


def dumps(case):
    """One top-level key per line, values compact (the layout of ../shared/reference)."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v, separators=(', ', ': '))}" for k, v in case.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("family")
    ap.add_argument("--count", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--builds", help="comma-separated (default: dsp_O2,scalar_O2, and ref_O2 "
                                     "when the family has a TFLM reference harness)")
    ap.add_argument("--start", type=int, default=0, help="first case index")
    args = ap.parse_args(argv)
    table = by_family()
    if args.family not in table or not hasattr(table[args.family], "VARIANTS") \
            or args.family not in table[args.family].VARIANTS:
        have = sorted(f for f, m in table.items() if f in getattr(m, "VARIANTS", {}))
        print(f"random_cases: no random cases for family {args.family!r} (have: {', '.join(have)})",
              file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(args.start, args.start + args.count):
        t0 = time.time()
        builds = args.builds.split(",") if args.builds else default_builds(table[args.family], args.family)
        case = make_case(args.family, i, args.seed, builds)
        (out / f"{case['case']}.json").write_text(dumps(case))
        m = case["measured"]
        print(f"{case['case']:60s} " + " ".join(f"{b} {m[b]['instructions']:7d}" for b in m)
              + f"  {time.time() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
