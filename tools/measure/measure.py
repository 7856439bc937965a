"""Measure a case: build the image of the real kernels for each build, run the one API call on
the emulated core, and return the measured fields in ../shared/reference's schema.

    python -m tools.measure.measure CASE.json [--builds dsp_O2,scalar_O2] [--out OUT.json]
"""
import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from . import toolchain
from .builds import BUILDS, CMSIS_NN_COMMIT
from .cgen import CaseError
from .counts import DecodeError, measure_fields
from .emulators import EMULATORS, EmulationError
from .families import harness_for
from .image import Image

NP_TYPES = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64}
DEFAULT_BUILDS = ("dsp_O2", "scalar_O2")


class MeasureError(RuntimeError):
    pass


def libraries_for(harness, build):
    """(libraries, include dirs) the harness links against."""
    if harness.language == "c":
        return [toolchain.cmsis_nn_library(build)], toolchain.cmsis_nn_includes()
    from . import tflm  # the reference kernels' C++ build
    return tflm.libraries(build), tflm.includes()


# The reference linked the original eight families' images with every `functions_validated`
# entry point called in the same image, the later families' with the counted entry point only
# (their other functions were validated in a separate image).  Only the layout differs: whether
# a wrapper's tail call lands on the next address (not a taken branch) or not.
ORIGINAL_FAMILIES = {"conv", "depthwise_conv", "fully_connected", "avgpool", "maxpool",
                     "softmax", "elementwise_add", "elementwise_mul"}


def _run_image(case, harness, build, work):
    libs, incs = libraries_for(harness, build)
    elf = toolchain.link_image(build, harness.source, work, libs, incs,
                               suffix=".cc" if harness.language == "c++" else ".c")
    image = Image(elf)
    run = EMULATORS[build.emulator](image, build.cpu_model)
    if run.status != 0:
        raise MeasureError(f"{case['case']} ({build.name}): {harness.entry} returned {run.status}")
    return image, run


def measure_build(case, build, function=None, keep_dir=None, also=None):
    """(fields, outputs, harness): the measured fields of one build and the arrays the call
    wrote; every function in `harness.also` is then called (uncounted) and must write the
    same output."""
    reference = build.language == "c++"
    harness = harness_for(case, function, also, reference)
    same_image = case.get("family") in ORIGINAL_FAMILIES or not harness.also
    counted = harness if same_image else harness_for(case, function, (), reference)
    with tempfile.TemporaryDirectory(prefix="measure_") as tmp:
        work = Path(keep_dir) / build.name if keep_dir else Path(tmp)
        image, run = _run_image(case, counted, build, work)
        fields = measure_fields(run, counted.entry)
        outputs = {out.field: read_array(run, image, out.symbol, out.dtype, out.length)
                   for out in counted.outputs}
        if not same_image:
            image, run = _run_image(case, harness, build, work / "validate")
        first = harness.outputs[0]
        for k, name in enumerate(harness.also):
            status = run.call("harness_validate", k)
            if status != 0:
                raise MeasureError(f"{case['case']} ({build.name}): {name} returned {status}")
            if read_array(run, image, "output_check", first.dtype, first.length) != outputs[first.field]:
                raise MeasureError(f"{case['case']} ({build.name}): {name} wrote a different "
                                   f"output than {harness.entry}")
    return fields, outputs, harness


def read_array(run, image, symbol, dtype, length):
    raw = run.read(image.address(symbol), length * np.dtype(NP_TYPES[dtype]).itemsize)
    return np.frombuffer(raw, NP_TYPES[dtype]).astype(int).tolist()


def build_record(build):
    """The `build` object of a measured entry."""
    if build.language == "c":
        return build.record("cmsis_nn_commit", CMSIS_NN_COMMIT, "-I<CMSIS-NN>/Include")
    from . import tflm
    return tflm.build_record(build)


def measure_case(case, builds=DEFAULT_BUILDS, function=None, keep_dir=None, log=None, also=None):
    """{'measured': {build: {...}}, 'outputs': {field: values}} for the case; outputs must
    agree between builds."""
    measured, outputs = {}, None
    for name in builds:
        build = BUILDS[name]
        t0 = time.time()
        fields, outs, _ = measure_build(case, build, function, keep_dir, also)
        if outputs is None:
            outputs = outs
        elif outs != outputs:
            raise MeasureError(f"{case['case']}: outputs of {name} differ from {builds[0]}")
        measured[name] = {"build": build_record(build), **fields}
        if log:
            log(f"{case['case']} {name}: {fields['instructions']} instructions, "
                f"{time.time() - t0:.1f} s")
    return {"measured": measured, "outputs": outputs}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", help="a case in the vectors' JSON schema")
    ap.add_argument("--builds", default=",".join(DEFAULT_BUILDS))
    ap.add_argument("--function", help="entry point (default: the case's `function`)")
    ap.add_argument("--out", help="write the case with `measured` added here (default: stdout)")
    ap.add_argument("--keep", help="keep the generated harness and image in this directory")
    args = ap.parse_args(argv)
    try:
        case = json.loads(Path(args.case).read_text())
        builds = [b for b in args.builds.split(",") if b]
        for b in builds:
            if b not in BUILDS:
                raise MeasureError(f"unknown build {b!r} (known: {', '.join(BUILDS)})")
        res = measure_case(case, builds, args.function, args.keep,
                           log=lambda m: print(m, file=sys.stderr))
    except (OSError, json.JSONDecodeError, CaseError, MeasureError, DecodeError, EmulationError,
            toolchain.ToolchainError) as e:
        print(f"measure: {args.case}: {e}", file=sys.stderr)
        return 1
    case = dict(case)
    for k, v in res["outputs"].items():
        if k in case and case[k] != v:
            print(f"measure: {args.case}: the compiled kernel's {k} differs from the case's",
                  file=sys.stderr)
        case[k] = v
    case["measured"] = res["measured"]
    text = json.dumps(case, indent=1)
    if args.out:
        Path(args.out).write_text(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
