"""Bytes per executed instruction of the real TFLM + CMSIS-NN firmware (the fetch model's
`InstructionFetch.bytes_per_instruction`, armsim.cpu.memory).

armsim's kernels have no code addresses, so instruction fetch is priced per executed
instruction at a mean encoded size.  This measures that mean: CMSIS-NN's sources are compiled
as the reference firmware was (arm-none-eabi-gcc -O2, -mcpu=cortex-m4 for the DSP build,
cortex-m3 for plain C), each function's
instructions are read from `objdump` with their encoded size (2 or 4 bytes), and each op of
the shared MLPerf Tiny models is weighted by what the real firmware executed
(``../shared/models/*/measured.json``: the op's mnemonic histogram, and its executed
instructions per function).  A mnemonic's size in an op is its mean size in the op's
CMSIS-NN functions, weighted by how many instructions each function executed; for code
outside CMSIS-NN (TFLM, memcpy) the mean over every CMSIS-NN function is used.

    python benchmarks/thumb_bytes_per_instruction.py --cmsis-nn PATH [--path simd|scalar]

PATH is a CMSIS-NN source tree (the reference firmware used 99f736a).  Needs
arm-none-eabi-gcc and arm-none-eabi-objdump on PATH.
"""
import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
MODELS = ("kws", "vww", "ic", "ad")
CPU_OF_PATH = {"simd": "cortex-m4", "scalar": "cortex-m3"}     # as the firmware was built
_LINE = re.compile(r"\s+[0-9a-f]+:\t([0-9a-f]{4}(?: [0-9a-f]{4})?)\s*\t(\S+)\s*([^;@<]*)")
_FUNCTION = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
_CONDITIONS = "eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al"


def mnemonic(name, operands):
    """objdump's mnemonic as the firmware histograms name it (README of ../shared/reference:
    width suffix and IT condition dropped, a conditional branch is ``bcc``; a MOV with a
    shifted register is the shift, as the emulator's disassembler prints it)."""
    name = name.lower().split(".")[0]
    shift = re.search(r",\s*(lsl|lsr|asr|ror)\s+#", operands)
    if name in ("mov", "movs") and shift:
        return shift.group(1)
    if re.fullmatch(rf"b({_CONDITIONS})", name):
        return "bcc"
    if name.startswith("it") and re.fullmatch(r"it[te]{0,3}", name):
        return "it"
    return name


def disassembly(cmsis_nn, workdir, cpu):
    """{function: {mnemonic: [encoded sizes]}} of every non-float CMSIS-NN source file (as
    ../shared/reference/README.md says the firmware was built)."""
    sizes = collections.defaultdict(lambda: collections.defaultdict(list))
    for source in sorted((cmsis_nn / "Source").glob("*/*.c")):
        if re.search(r"_f(16|32)$", source.stem):    # float kernels: not in the firmware
            continue
        obj = workdir / (source.stem + ".o")
        subprocess.run(["arm-none-eabi-gcc", "-O2", f"-mcpu={cpu}", "-mthumb",
                        f"-I{cmsis_nn / 'Include'}", "-c", str(source), "-o", str(obj)],
                       check=True)
        text = subprocess.run(["arm-none-eabi-objdump", "-d", str(obj)], check=True,
                              capture_output=True, text=True).stdout
        function = None
        for line in text.splitlines():
            if (f := _FUNCTION.match(line)) is not None:
                function = f.group(1)
            elif (i := _LINE.match(line)) is not None and function is not None:
                size = 2 if len(i.group(1)) == 4 else 4
                sizes[function][mnemonic(i.group(2), i.group(3))].append(size)
    return sizes


def _strip_conditions(name, known):
    """`adds`, `addne`, `addsne` -> `add` when the histogram knows the base name."""
    for candidate in (name, re.sub(rf"({_CONDITIONS})$", "", name)):
        for c in (candidate, candidate[:-1] if candidate.endswith("s") else candidate):
            if c in known:
                return c
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cmsis-nn", type=Path, required=True, help="CMSIS-NN source tree")
    ap.add_argument("--path", default="simd", choices=tuple(CPU_OF_PATH),
                    help="simd: the DSP build (Cortex-M4); scalar: plain C (Cortex-M3)")
    args = ap.parse_args()
    if not (args.cmsis_nn / "Source").is_dir():
        sys.exit(f"{args.cmsis_nn}: not a CMSIS-NN source tree (no Source/)")
    measured = {m: json.loads((SHARED / "models" / m / "measured.json").read_text())
                for m in MODELS}
    known = {mn for d in measured.values() for op in d["paths"][args.path]["ops"]
             for mn in op["hist"]}
    with tempfile.TemporaryDirectory() as tmp:
        raw = disassembly(args.cmsis_nn, Path(tmp), CPU_OF_PATH[args.path])
    per_function = {}
    overall = collections.defaultdict(list)
    for function, by_name in raw.items():
        merged = collections.defaultdict(list)
        for name, sizes in by_name.items():
            merged[_strip_conditions(name, known)] += sizes
        per_function[function] = merged
        for name, sizes in merged.items():
            overall[name] += sizes

    def mean_size(name, functions):
        weighted = [(n, sum(per_function[f][name]) / len(per_function[f][name]))
                    for f, n in functions.items() if per_function.get(f, {}).get(name)]
        if weighted:
            return sum(n * s for n, s in weighted) / sum(n for n, _ in weighted), True
        if overall.get(name):
            return sum(overall[name]) / len(overall[name]), True
        return None, False

    print(f"{args.path} path, CMSIS-NN {args.cmsis_nn} "
          f"(gcc -O2 -mcpu={CPU_OF_PATH[args.path]} -mthumb)")
    total_bytes = total = unknown = 0
    for model, data in measured.items():
        m_bytes = m_count = 0
        for op in data["paths"][args.path]["ops"]:
            for name, n in op["hist"].items():
                size, found = mean_size(name, op.get("functions_top", {}))
                if not found:
                    unknown += n
                    continue
                m_bytes += n * size
                m_count += n
        print(f"{model:4s} {m_count:>12,} instructions  {m_bytes / m_count:.3f} bytes each")
        total_bytes += m_bytes
        total += m_count
    print(f"all  {total:>12,} instructions  {total_bytes / total:.3f} bytes each "
          f"({unknown:,} executed instructions of a mnemonic CMSIS-NN's objects lack, left out)")


if __name__ == "__main__":
    main()
