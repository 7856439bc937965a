"""Which Armv8.1-M instructions CMSIS-NN's MVE build contains: every MVE instruction and
every scalar one new in Armv8.1-M (low-overhead loops, long shifts, conditional selects),
by armsim mnemonic, with how often it appears in the code and in which files.

    python tools/mve_qemu/mnemonics.py [/work/cache/disasm/mve_O2/obj]

The objects are CMSIS-NN's non-float C files built by /work/cache/disasm/build_mve.sh
(arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m55 -mthumb -mfloat-abi=hard -ffunction-sections
-fdata-sections -std=gnu11).  Counts are static (instructions in the code), not executed.
"""
import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import count                                                          # noqa: E402
import qemu                                                           # noqa: E402

from armsim.cpu.instructions import ARMV81M_MNEMONICS, MNEMONIC_INDEX  # noqa: E402

# scalar instructions added by Armv8.1-M (the MVE ones all start with 'v')
ARMV81M_SCALAR = ("le", "letp", "dls", "dlstp", "wls", "wlstp", "lctp", "csel", "csinc",
                  "csinv", "csneg", "cinc", "cinv", "cneg", "cset", "csetm", "asrl", "lsll",
                  "lsrl", "sqrshr", "sqrshrl", "sqshl", "sqshll", "srshr", "srshrl", "uqrshl",
                  "uqrshll", "uqshl", "uqshll", "urshr", "urshrl", "bf", "bfx", "bfl", "bflx",
                  "bfcsel", "clrm", "vscclrm")


def armv81m(mnemonic):
    """Whether armsim mnemonic `mnemonic` is an Armv8.1-M instruction (MVE or scalar)."""
    return mnemonic.split(".")[0] in ARMV81M_SCALAR or (
        mnemonic.startswith("v") and mnemonic not in ("vpush", "vpop", "vldr", "vstr", "vmsr",
                                                      "vmrs", "vmov.32", "vmov"))


def survey(objects):
    """{mnemonic: (static count, {file})} of the Armv8.1-M instructions in `objects`, and
    the FP-register moves and stack instructions (VPUSH, VLDR, VMOV ...) next to them."""
    found, files = Counter(), defaultdict(set)
    for path in objects:
        for insn in count.disassemble(path, qemu.M55).values():
            if armv81m(insn.mnemonic) or insn.mnemonic.startswith("v"):
                found[insn.mnemonic] += 1
                files[insn.mnemonic].add(path.stem)
    return {mn: (n, files[mn]) for mn, n in found.most_common()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("objects", type=Path, nargs="?",
                        default=Path("/work/cache/disasm/mve_O2/obj"))
    args = parser.parse_args(argv)
    objects = sorted(args.objects.glob("*.o"))
    if not objects:
        sys.exit(f"mnemonics.py: no .o files in {args.objects} (run build_mve.sh)")
    rows = survey(objects)
    print(f"{'mnemonic':<20}{'static':>7}  armsim  files")
    for mnemonic, (n, where) in rows.items():
        known = "yes" if mnemonic in MNEMONIC_INDEX else "NO"
        listed = ", ".join(sorted(where)[:3]) + (f" (+{len(where) - 3})" if len(where) > 3 else "")
        print(f"{mnemonic:<20}{n:>7}  {known:<6}  {listed}")
    missing = sorted(set(rows) - set(ARMV81M_MNEMONICS) - set(MNEMONIC_INDEX))
    print(f"\n{len(rows)} mnemonics; not in armsim: {', '.join(missing) or 'none'}")


if __name__ == "__main__":
    main()
