"""armsim with board presets against every published board measurement of a model it runs.

    python benchmarks/validate_boards.py [--models kws,vww,ic,ad] [--person-detect PATH]

For each published latency below (MLPerf Tiny performance-mode medians of the same four
models as ../shared/models), armsim profiles the model's simd path (TFLM + CMSIS-NN with
ARM_MATH_DSP) on input_0.npy with the board's preset (`armsim.data.boards`: cited figures, nothing
fitted to these results) and prints published cycles (latency x clock), armsim's
zero-wait-state cycles, armsim's board cycles, the difference, the memory terms, and the
range of armsim's board cycles over the preset's assumed figures (`armsim boards NAME`
lists them with the range each could take; the profile prices every corner of those ranges
from the same run), with whether the published figure lies inside it.  The EK-RA6M4 rows
are the firmware's configuration (its S-cache on, as the submission's hal_entry.c does); a
second row prices the same run with the S-cache off, as FSP's start-up alone leaves it.
With --person-detect PATH (TFLM's own
tensorflow/lite/micro/models/person_detect.tflite; not in ../shared, not committed here) it
adds person detection on the NUCLEO-F413ZH, on seeded random inputs (no input file exists;
the kernels' few data-dependent branches make that a small difference).  Figures only, no
thresholds.

What limits the comparison (also printed): the boards ran other builds than the one armsim
models (gcc 12 -O2 with TFLM 90b983c / CMSIS-NN 99f736a, ../shared/models/README.md): the
EK-RA6M4 firmware was GNU Arm Embedded 8.3.1 at -O3 with the TFLM and CMSIS-NN its
submission vendored; the NUCLEO-L4R5ZI reference submission is TFLM on Mbed OS whose kernel
library the submission does not state.  MLPerf's timing also includes the benchmark
harness's per-inference work outside Invoke (input copy, output), which armsim does not run.
"""
import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from armsim.data import boards  # noqa: E402
from armsim.pipeline import prepare, profiler
from armsim.pipeline import model as model_mod  # noqa: E402
from armsim.pipeline.build import Build

MODELS = Path(os.environ.get("ARMSIM_MODELS", ROOT.parent / "shared" / "models"))

V07 = "mlcommons/tiny_results_v0.7 closed/renesas/results/EK-RA6M4/{m}/performance/results.txt"
V05 = "mlcommons/tiny_results_v0.5 closed/reference/results/Nucleo-L4R5ZI/{m}/performance/results.txt"
RA6M4_BUILD = ("GNU Arm Embedded 8.3.1-2019q3, -O3 (closed/renesas/code/EK_RA6M4/.cproject); "
               "TFLM + CMSIS-NN vendored in the submission (2022), Renesas FSP 2022")
L4R5_BUILD = ("TFLM on Mbed OS (mlcommons/tiny v0.1 reference code); kernel library not "
              "stated in the submission")


@dataclass
class Published:
    model: str
    board: str
    latency_ms: float
    inferences_per_s: str
    source: str
    build: str


MEASUREMENTS = [
    Published("kws", "ek-ra6m4", 1e3 / 19.774, "19.774", V07.format(m="kws"), RA6M4_BUILD),
    Published("vww", "ek-ra6m4", 1e3 / 6.159, "6.159", V07.format(m="vww"), RA6M4_BUILD),
    Published("ic", "ek-ra6m4", 1e3 / 4.062, "4.062", V07.format(m="ic"), RA6M4_BUILD),
    Published("ad", "ek-ra6m4", 1e3 / 216.772, "216.772", V07.format(m="ad"), RA6M4_BUILD),
    Published("kws", "nucleo-l4r5zi", 1e3 / 5.497, "5.497", V05.format(m="kws"), L4R5_BUILD),
    Published("vww", "nucleo-l4r5zi", 1e3 / 1.665, "1.665", V05.format(m="vww"), L4R5_BUILD),
    Published("ic", "nucleo-l4r5zi", 1e3 / 1.420, "1.420", V05.format(m="ic"), L4R5_BUILD),
    Published("ad", "nucleo-l4r5zi", 1e3 / 99.487, "99.487", V05.format(m="ad"), L4R5_BUILD),
]

PERSON_DETECT = Published(
    "person_detect", "nucleo-f413zh", 386.6, "-", "Samsung/ONE issue #7598",
    "TFLM + CMSIS-NN on the NUCLEO-F413ZH (the issue's build; its TFLM, CMSIS-NN and "
    "toolchain versions are not armsim's)")
NOT_RUN = ("person detection, NUCLEO-F413ZH, TFLM + CMSIS-NN, 386.6 ms (Samsung/ONE issue "
           "#7598)", "no person_detect model in ../shared/models: give --person-detect PATH")

def _load(name, cache, paths):
    """(model, prepared steps, inputs) of model `name` (a shared model with its input_0.npy,
    or a path in `paths` with seeded random inputs), loaded once."""
    if name not in cache:
        path = Path(paths.get(name, MODELS / name / "model.tflite"))
        model = model_mod.load(str(path))
        inputs = [np.load(path.parent / "input_0.npy")] if name not in paths else \
            profiler.random_inputs(model, seed=0)
        cache[name] = (model, prepare.prepare(model), inputs)
    return cache[name]


def _run(name, config, cache, paths, board=True):
    """The simd profile of `name` priced on `config` (its core and clock; with `board`
    False, zero-wait-state memory) and its summed cycle terms."""
    model, steps, inputs = _load(name, cache, paths)
    prof = profiler.run(model, Build("simd", core=config.core), config.clock_mhz, inputs=inputs,
                        steps=steps, board=config if board else None)
    terms = {}
    for op in prof.ops:
        for k, v in op.breakdown.items():
            terms[k] = terms.get(k, 0) + v
    return prof, terms


def _diff(ours, theirs):
    return f"{100.0 * (ours / theirs - 1):+6.1f}%"


def _range(prof, published):
    """armsim's cycles over the assumed figures' ranges, and whether `published` is in it."""
    low, high = prof.cycles_min, prof.cycles_max
    inside = "yes" if low <= published <= high else \
        f"no ({_diff(low if published < low else high, published).strip()})"
    return f"{low / 1e6:7.3f}-{high / 1e6:7.3f}", inside


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="kws,vww,ic,ad")
    ap.add_argument("--boards", default=",".join(sorted({m.board for m in MEASUREMENTS})))
    ap.add_argument("--person-detect", metavar="PATH",
                    help="TFLM's person_detect.tflite: adds the NUCLEO-F413ZH comparison")
    args = ap.parse_args()
    wanted, wanted_boards = args.models.split(","), args.boards.split(",")
    measurements, paths = list(MEASUREMENTS), {}
    if args.person_detect:
        measurements.append(PERSON_DETECT)
        paths[PERSON_DETECT.model] = args.person_detect
        wanted.append(PERSON_DETECT.model)
        wanted_boards.append(PERSON_DETECT.board)
    models, rows, started = {}, [], time.perf_counter()
    print("armsim (simd path, input_0.npy) with board presets vs published MLPerf Tiny latencies "
          "(cycles in millions)")
    print(f"{'model':13s} {'board':18s} {'MHz':>4s} {'published ms':>12s} {'published':>9s} "
          f"{'armsim 0-ws':>11s} {'diff':>7s} {'armsim board':>12s} {'diff':>7s} "
          f"{'armsim range':>15s} {'inside':>14s} {'data':>9s} {'stack':>9s} {'fetch':>7s}",
          flush=True)
    inside = []
    for pub in measurements:
        if pub.model not in wanted or pub.board not in wanted_boards:
            continue
        config = boards.configure(pub.board)
        zero = _run(pub.model, config, models, paths, board=False)[0].cycles
        rows.append(pub)
        published = pub.latency_ms * config.clock_mhz * 1e3
        variants = [(pub.board, config)]
        if pub.board == "ek-ra6m4":
            variants.append(("  S-cache off", boards.configure(pub.board, no_cache=("s-cache",))))
        for label, variant in variants:
            prof, terms = _run(pub.model, variant, models, paths)
            span, verdict = _range(prof, published)
            if variant is config:
                inside.append((pub, verdict))
                lead = (f"{pub.model:13s} {label:18s} {config.clock_mhz:4.0f} "
                        f"{pub.latency_ms:12.3f} {published / 1e6:9.3f} {zero / 1e6:11.3f} "
                        f"{_diff(zero, published)}")
            else:
                lead = f"{'':13s} {label:18s} {'':4s} {'':12s} {'':9s} {'':11s} {'':7s}"
            print(f"{lead} {prof.cycles / 1e6:12.3f} {_diff(prof.cycles, published)} "
                  f"{span:>15s} {verdict:>14s} {terms['data_memory']:9,d} "
                  f"{terms['stack_memory']:9,d} {terms['instruction_fetch']:7,d}", flush=True)
    print("\npublished figure inside armsim's range (the board preset, its assumed figures at "
          "both ends)")
    for pub, verdict in inside:
        print(f"  {pub.model}/{pub.board}: {verdict}")
    print("\nsources and builds")
    for pub in rows:
        rate = f"{pub.inferences_per_s} inf./s" if pub.inferences_per_s != "-" else \
            f"{pub.latency_ms} ms"
        print(f"  {pub.model}/{pub.board}: {rate}, {pub.source}")
    for board in sorted({pub.board for pub in rows}):
        config = boards.configure(board)
        build = next(pub.build for pub in rows if pub.board == board)
        print(f"  {board}: {config.describe()}\n    board firmware: {build}")
    print("  armsim: TFLM 90b983c + CMSIS-NN 99f736a as compiled by arm-none-eabi-gcc 12.2 -O2 "
          "(../shared/models/README.md), simd path")
    if not args.person_detect:
        print(f"\nnot compared\n  {NOT_RUN[0]}: {NOT_RUN[1]}")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
