"""Dump the disassembly, with source interleaved and C++ names demangled, of every object a
build compiles (the code the measured counts come from), for porters to read.

    python -m tools.measure.disasm ref_O2 [--out /work/cache/disasm]

writes <out>/<build>/<object>.S (the CMSIS-NN builds' dumps already live in
/work/cache/disasm/{dsp_O2,scalar_O2}, made by /work/cache/disasm/build.sh)."""
import argparse
import subprocess
import sys
from pathlib import Path

from . import toolchain
from .builds import BUILDS

DISASM = Path("/work/cache/disasm")


def libraries(build):
    if build.language == "c":
        return [toolchain.cmsis_nn_library(build)]
    from . import tflm
    return tflm.libraries(build)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", choices=sorted(BUILDS))
    ap.add_argument("--out", default=str(DISASM))
    args = ap.parse_args(argv)
    build = BUILDS[args.build]
    out = Path(args.out) / build.name
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for lib in libraries(build):
        for obj in sorted((lib.parent / "obj").glob("*.o")):
            text = subprocess.run(["arm-none-eabi-objdump", "-d", "-S", "-C", "--no-show-raw-insn",
                                   str(obj)], capture_output=True, text=True, check=True).stdout
            (out / f"{obj.stem}.S").write_text(text)
            n += 1
    print(f"{n} files in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
