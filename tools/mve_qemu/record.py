"""Run every instruction case on QEMU's Cortex-M55 and record operands and results.

    python tools/mve_qemu/record.py                 # all cases -> tests/data/mve_qemu/
    python tools/mve_qemu/record.py --only vadd.i32 vqrdmulh.s32/r/vpst

Writes ``isa.npz`` (per case ``<name>:in`` and ``<name>:out``: the packed input and output
fields of each operand set, `harness.pack`) and ``isa.json`` (per case the snippet, the
field lists and the operand-set count; the toolchain and QEMU versions).  With ``--only``
the named cases are re-recorded and the others kept.  tests/cpu/test_isa_mve.py checks armsim
against these files without QEMU.
"""
import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cases as case_table                                          # noqa: E402
import harness                                                      # noqa: E402
import operands                                                     # noqa: E402
import qemu                                                         # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO / "tests" / "data" / "mve_qemu"


def run_case(case, workdir):
    """(input records, output records) of `case` run on QEMU."""
    workdir = Path(workdir)
    fields = operands.draw(case)
    records = harness.records(fields, case.sets)
    inputs_path = workdir / "inputs.bin"
    outputs_path = workdir / "outputs.bin"
    inputs_path.write_bytes(records.tobytes())
    if outputs_path.exists():
        outputs_path.unlink()
    elf = qemu.build(workdir, {"case.S": harness.source(case, inputs_path, outputs_path,
                                                        case.sets)})
    qemu.run(elf)
    out = np.frombuffer(outputs_path.read_bytes(), np.uint8)
    if out.size != records.size:
        raise qemu.QemuError(f"{case.name}: {out.size} bytes of results, expected {records.size}")
    return records, out.reshape(records.shape)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--only", nargs="*", help="case names to (re)record")
    args = parser.parse_args(argv)
    try:
        qemu.require_tools()
    except qemu.QemuError as error:
        sys.exit(f"record.py: {error}")
    chosen = case_table.CASES
    if args.only:
        unknown = set(args.only) - {c.name for c in chosen}
        if unknown:
            sys.exit(f"record.py: unknown case(s): {', '.join(sorted(unknown))}")
        chosen = [c for c in chosen if c.name in args.only]
    args.out.mkdir(parents=True, exist_ok=True)
    npz_path, json_path = args.out / "isa.npz", args.out / "isa.json"
    arrays, meta = {}, {"cases": {}}
    if args.only and npz_path.exists():
        with np.load(npz_path) as old:
            arrays = {k: old[k] for k in old.files}
        meta = json.loads(json_path.read_text())
    with tempfile.TemporaryDirectory() as tmp:
        for case in chosen:
            try:
                records, results = run_case(case, tmp)
            except qemu.QemuError as error:
                sys.exit(f"record.py: case {case.name}: {error}")
            inputs = list(case.inputs)
            arrays[f"{case.name}:in"] = harness.pack(records, inputs)
            arrays[f"{case.name}:out"] = harness.pack(results, case.outputs)
            meta["cases"][case.name] = {"asm": case.asm, "inputs": inputs,
                                        "outputs": list(case.outputs), "sets": case.sets,
                                        "extra": case.extra}
            print(f"{case.name}: {case.sets} operand sets", file=sys.stderr)
    order = [c.name for c in case_table.CASES]
    meta["cases"] = {name: meta["cases"][name] for name in order if name in meta["cases"]}
    meta["field_bytes"] = harness.FIELD_BYTES
    meta["tools"] = qemu.versions()
    meta["machine"] = qemu.MACHINE
    meta["command"] = "python tools/mve_qemu/record.py"
    np.savez_compressed(npz_path, **arrays)
    json_path.write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {npz_path} ({npz_path.stat().st_size} bytes) and {json_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
