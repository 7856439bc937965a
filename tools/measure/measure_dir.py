"""Measure every case of a directory on some builds and write only the measured entries (for
cases whose arrays live elsewhere, e.g. ../shared/reference, which has no ref_O2 entry):

    python -m tools.measure.measure_dir ../shared/reference --builds ref_O2 \\
        --out tests/data/measured/shared_reference

Writes <out>/<case>.json: {"case", "family", "shared_case" (the source file, relative to the
repository root), "measured": {build: ...}}.  Cases of families without a harness for every
requested build are skipped (listed); the compiled kernel's output must equal the case's
output_ref."""
import argparse
import json
import os
import sys
from pathlib import Path

from .builds import BUILDS
from .cgen import CaseError
from .families import by_family
from .measure import measure_case
from .random_cases import dumps

REPO = Path(__file__).resolve().parents[2]


def supported(case, builds):
    mod = by_family().get(case.get("family"))
    if mod is None:
        return False
    return all(BUILDS[b].language == "c" or case["family"] in getattr(mod, "REF_FAMILIES", ())
               for b in builds)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("directory")
    ap.add_argument("--builds", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    builds = args.builds.split(",")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bad = 0
    for path in sorted(Path(args.directory).glob("*.json")):
        case = json.loads(path.read_text())
        if not supported(case, builds):
            print(f"{case['case']:44s} skipped: no {'/'.join(builds)} harness for {case['family']}")
            continue
        try:
            res = measure_case(case, builds)
        except (CaseError, RuntimeError) as e:
            print(f"{case['case']:44s} ERROR {e}")
            bad += 1
            continue
        if any(case.get(k) != v for k, v in res["outputs"].items()):
            print(f"{case['case']:44s} OUTPUT DIFFERS from output_ref")
            bad += 1
            continue
        record = {"case": case["case"], "family": case["family"],
                  "shared_case": os.path.relpath(path.resolve(), REPO),
                  "measured": res["measured"]}
        (out / f"{case['case']}.json").write_text(dumps(record))
        print(f"{case['case']:44s} " + " ".join(f"{b} {m['instructions']}" for b, m in res["measured"].items()))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
