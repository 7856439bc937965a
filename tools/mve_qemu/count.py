"""Count the instructions a function executes on QEMU, per mnemonic, as armsim counts them.

    python tools/mve_qemu/count.py ../shared/reference/fc_64_32.json              # MVE, M55
    python tools/mve_qemu/count.py ../shared/reference/fc_64_32.json --target cortex-m4

The method (tools/mve_qemu/README.md says why and what it cannot see):

1. QEMU runs the program with ``-singlestep -d exec,cpu,nochain``: every instruction is a
   translation block of its own, and with chaining off every executed block is logged with
   its PC and the CPU state before it (the xPSR: NZCV flags and the IT state).  The log goes
   through a named pipe and is read while QEMU runs, so its size does not matter.
2. objdump (``-m armv8.1-m.main`` for MVE) gives every address its instruction; `normalize`
   turns the disassembler's spelling into armsim's mnemonic (instructions.py): width
   suffixes, flag-setting ``s``, IT conditions and the 't'/'e' of VPT blocks dropped,
   ``bcc`` for conditional branches, ``.gather`` / ``.scatter`` for vector-offset
   addressing, the VMOV forms told apart.
3. Counting runs from the first instruction of the entry function to its return (the PC
   reaching the LR it was called with).  An instruction in an IT block whose condition the
   flags fail is not executed: it is counted apart (``condition_failed_it``), as in
   ../shared/reference.  MVE instructions predicated false (VPT, tail predication) are
   executed instructions and count; LE / LETP count every iteration.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from collections import Counter, namedtuple
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qemu                                                            # noqa: E402

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from armsim.cpu.instructions import MNEMONIC_INDEX                    # noqa: E402

Instruction = namedtuple("Instruction", "address size mnemonic text function it_cond predicated")

CONDITIONS = ("eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt",
              "le", "al")
_CONDITION_ALIASES = {"hs": "cs", "lo": "cc"}
_LINE = re.compile(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{4} ?){1,2})\s*\t(\S+)\s*(.*)$")
_FUNCTION = re.compile(r"^([0-9a-f]+) <(.+)>:$")


def _condition_code(text):
    text = _CONDITION_ALIASES.get(text, text)
    return CONDITIONS.index(text)


def _strip_condition(mnemonic, cond):
    """`mnemonic` (width suffix gone) without the IT condition `cond` objdump appended."""
    names = [cond] + [alias for alias, real in _CONDITION_ALIASES.items() if real == cond]
    for name in names:
        if mnemonic.endswith(name) and len(mnemonic) > len(name):
            return mnemonic[:-len(name)]
        if "." in mnemonic:                                   # e.g. vmovt? no: ldrbeq.w
            base, _, dtype = mnemonic.partition(".")
            if base.endswith(name):
                return base[:-len(name)] + "." + dtype
    return mnemonic


def normalize(mnemonic, operands, it_cond=None, in_vpt_block=False):
    """armsim's mnemonic (instructions.py) of one disassembled instruction: `mnemonic` and
    `operands` as objdump prints them; `it_cond` its IT condition (a name of CONDITIONS)
    inside an IT block; `in_vpt_block` when a VPST/VPT predicates it."""
    name = mnemonic.lower()
    for width in (".w", ".n"):
        if name.endswith(width):
            name = name[:-2]
    if it_cond is not None:
        name = _strip_condition(name, it_cond)
    base, dot, dtype = name.partition(".")
    if in_vpt_block and base[-1:] in ("t", "e"):
        base = base[:-1]
        name = base + dot + dtype
    if base.startswith("it") and set(base[2:]) <= {"t", "e"}:
        return "it"
    if base.startswith("vpst"):
        return "vpst"
    if base.startswith("vpt") and set(base[3:]) <= {"t", "e"}:
        return "vpt." + dtype if dtype else "vpt"
    if base in ("vldrb", "vldrh", "vldrw", "vstrb", "vstrh", "vstrw") \
            and re.search(r"\[\w+, q\d", operands):
        return name + (".gather" if base.startswith("vld") else ".scatter")
    if base == "vmov":
        if re.fullmatch(r"q\d+, q\d+", operands):
            return "vmov"
        if re.fullmatch(r"q\d+\[\d\], q\d+\[\d\], \w+, \w+", operands):
            return "vmov.rr"
        if re.fullmatch(r"\w+, s\d+", operands) or name == "vmov.32":
            return "vmov.32"
        return name
    if base == "vldr":
        return "vldr"
    if base in ("ldm", "ldmia", "ldmfd"):
        return "pop" if operands.startswith("sp!") else "ldm"
    if base in ("stmdb", "stmfd") and operands.startswith("sp!"):
        return "push"
    if base.startswith("v") or name in MNEMONIC_INDEX:
        return name
    if base == "b" or (base[:1] == "b" and base[1:] in CONDITIONS + tuple(_CONDITION_ALIASES)):
        return "b" if base == "b" else "bcc"
    if base in ("stmia", "stmea"):
        return "stm"
    if base == "negs" or base == "neg":
        return "rsb"
    if base in ("addw", "subw"):
        return base[:-1]
    if base.endswith("s") and base[:-1] in MNEMONIC_INDEX:
        return base[:-1]
    return name


def disassemble(elf, target):
    """{address: Instruction} of every instruction of `elf`'s code."""
    text = subprocess.run([qemu.OBJDUMP, "-d", *target.objdump_flags, str(elf)],
                          capture_output=True, text=True, check=True).stdout
    out = {}
    function = None
    it_conditions = []          # conditions of the remaining IT-block instructions
    vpt_left = 0                # instructions the current VPT block still predicates
    for line in text.splitlines():
        header = _FUNCTION.match(line)
        if header:
            function = header.group(2)
            it_conditions, vpt_left = [], 0
            continue
        match = _LINE.match(line)
        if not match:
            continue
        address = int(match.group(1), 16)
        size = len(match.group(2).replace(" ", "")) // 2
        mnemonic, operands = match.group(3), match.group(4).split(";")[0].split("@")[0].strip()
        if mnemonic.startswith("."):            # literal pool words (.word, .short)
            continue
        cond = it_conditions.pop(0) if it_conditions else None
        in_vpt = vpt_left > 0
        vpt_left = max(vpt_left - 1, 0)
        name = normalize(mnemonic, operands, cond, in_vpt)
        out[address] = Instruction(address, size, name, f"{mnemonic} {operands}".strip(),
                                   function, cond, in_vpt)
        base = mnemonic.split(".")[0]
        if name == "it":
            first = _condition_code(operands.split()[0])
            inverse = CONDITIONS[first ^ 1]
            it_conditions = [CONDITIONS[first] if letter == "t" else inverse
                             for letter in "t" + base[2:]]
        elif name == "vpst":
            vpt_left = len(base) - 3
        elif name.startswith("vpt"):
            vpt_left = len(base) - 2
    return out


def condition_passes(cond, xpsr):
    """ConditionPassed() of condition `cond` (a name) with the flags of `xpsr`."""
    n, z, c, v = (xpsr >> 31) & 1, (xpsr >> 30) & 1, (xpsr >> 29) & 1, (xpsr >> 28) & 1
    code = _condition_code(cond)
    result = {0: z, 1: z, 2: c, 3: c, 4: n, 5: n, 6: v, 7: v, 8: c and not z, 9: c and not z,
              10: n == v, 11: n == v, 12: not z and n == v, 13: not z and n == v,
              14: True}[code]
    if code < 14 and code & 1:
        result = not result
    return bool(result)


def _it_state(xpsr):
    """ITSTATE<7:0> of the xPSR (EPSR.IT: bits 26:25 and 15:10)."""
    return ((xpsr >> 25) & 0x3) | ((xpsr >> 8) & 0xFC)


def trace(elf, target, timeout=600):
    """(pc, xpsr, lr) of every instruction `elf` executes on QEMU, in order, streamed
    through a named pipe; QemuError if the program fails."""
    with tempfile.TemporaryDirectory() as tmp:
        fifo = Path(tmp) / "log"
        os.mkfifo(fifo)
        process = subprocess.Popen(qemu.command(elf, "-singlestep", "-d", "exec,cpu,nochain",
                                                "-D", str(fifo), target=target),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        timer = threading.Timer(timeout, process.kill)
        timer.start()
        try:
            pc = lr = None
            with open(fifo) as log:
                for line in log:
                    if line.startswith("Trace "):
                        pc = int(line.split("[", 1)[1].split("/")[1], 16)
                    elif line.startswith("R12="):
                        lr = int(line.split("R14=")[1].split()[0], 16)
                    elif line.startswith("XPSR=") and pc is not None:
                        yield pc, int(line[5:13], 16), lr
                        pc = None
            status = process.wait()
        finally:
            timer.cancel()
            if process.poll() is None:
                process.kill()
                process.wait()
        if status:
            raise qemu.QemuError(f"{Path(elf).name} ended with status {status} on QEMU\n"
                                 f"{process.stderr.read()}")


def count(elf, entry, target=qemu.M55):
    """What the first call of function `entry` executes (callees included): a dict in the
    shape of ../shared/reference's ``measured`` (instructions, condition-failed IT
    instructions, mnemonic and per-function histograms, taken branches, calls), plus the
    executed instructions armsim has no mnemonic for and the VPT-predicated ones."""
    code = disassemble(elf, target)
    starts = {i.function: i.address for i in sorted(code.values(), reverse=True)}
    entry_address = starts.get(entry)
    if entry_address is None:
        raise ValueError(f"{Path(elf).name} has no function {entry!r}")
    histogram, functions, calls = Counter(), Counter(), Counter()
    failed = taken = predicated = 0
    return_to = previous = None
    for pc, xpsr, lr in trace(elf, target):
        if return_to is None:
            if pc != entry_address:
                continue
            return_to = lr & ~1
        elif pc == return_to:
            break
        insn = code.get(pc)
        if insn is None:
            raise ValueError(f"executed {pc:#x}, which objdump does not list as an instruction")
        if previous is not None:
            if pc != previous.address + previous.size:
                taken += 1
                if pc == starts.get(insn.function) and previous.mnemonic in ("bl", "blx", "b"):
                    calls[f"{previous.function}->{insn.function}"] += 1
        previous = insn
        it = _it_state(xpsr)
        if it & 0xF:                                   # inside an IT block
            cond = CONDITIONS[it >> 4]
            if insn.it_cond is None or _condition_code(insn.it_cond) != it >> 4:
                raise ValueError(f"{pc:#x} {insn.text}: QEMU's IT state says {cond}, the "
                                 f"disassembly {insn.it_cond}")
            if not condition_passes(cond, xpsr):
                failed += 1
                continue
        histogram[insn.mnemonic] += 1
        functions[insn.function] += 1
        predicated += insn.predicated
    if return_to is None:
        raise ValueError(f"{entry} never ran")
    if previous is not None:                   # the final return is a taken branch too
        taken += 1
    instructions = sum(histogram.values())
    return {
        "instructions": instructions,
        "instructions_incl_condition_failed_it": instructions + failed,
        "taken_branches": taken,
        "mnemonic_histogram": dict(histogram.most_common()),
        "functions": dict(functions.most_common()),
        "calls": dict(calls),
        "vpt_predicated": predicated,
        "unknown_mnemonics": sorted(mn for mn in histogram if mn not in MNEMONIC_INDEX),
    }


# --- the demonstration: one fully connected case of ../shared/reference ----------------------

CMSIS_NN = Path("/work/cache/cmsis-nn")
FC_SOURCES = ("Source/FullyConnectedFunctions/arm_fully_connected_s8.c",
              "Source/FullyConnectedFunctions/arm_fully_connected_get_buffer_sizes_s8.c",
              "Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s8.c",
              "Source/FullyConnectedFunctions/arm_vector_sum_s8.c")


def _array(ctype, name, values):
    return f"static {ctype} {name}[{len(values)}] __attribute__((aligned(16))) = {{" + \
        ", ".join(str(int(v)) for v in values) + "};\n"


def fc_program(case):
    """C source calling arm_fully_connected_s8 on a ../shared/reference fully connected case
    as TFLM does (the MVE build's kernel sums computed first, as TFLM's Prepare does);
    main returns non-zero unless the output equals the case's output_ref."""
    d, f, o = case["input_dims"], case["filter_dims"], case["output_dims"]
    p, q = case["fc_params"], case["quant_params"]
    return f"""
#include <string.h>
#include "arm_nnfunctions.h"
{_array("int8_t", "input", case["input"])}{_array("int8_t", "weights", case["weights"])}\
{_array("int32_t", "bias", case["bias"])}{_array("int8_t", "expected", case["output_ref"])}\
static int8_t output[{len(case["output_ref"])}];
static int32_t buffer[{f["c"]} + 4] __attribute__((aligned(16)));

int main(void)
{{
    cmsis_nn_dims input_dims = {{{d["n"]}, {d["h"]}, {d["w"]}, {d["c"]}}};
    cmsis_nn_dims filter_dims = {{{f["n"]}, {f["h"]}, {f["w"]}, {f["c"]}}};
    cmsis_nn_dims bias_dims = {{1, 1, 1, {o["c"]}}};
    cmsis_nn_dims output_dims = {{{o["n"]}, {o["h"]}, {o["w"]}, {o["c"]}}};
    cmsis_nn_fc_params fc_params = {{{p["input_offset"]}, {p["filter_offset"]},
                                    {p["output_offset"]},
                                    {{{p["activation"]["min"]}, {p["activation"]["max"]}}}}};
    cmsis_nn_per_tensor_quant_params quant_params = {{{q["multiplier"]}, {q["shift"]}}};
    cmsis_nn_context ctx = {{NULL, arm_fully_connected_s8_get_buffer_size(&filter_dims)}};
    if (ctx.size > 0) {{
        ctx.buf = buffer;
        arm_vector_sum_s8(buffer, filter_dims.n, output_dims.c, weights,
                          fc_params.input_offset, fc_params.filter_offset, bias);
    }}
    if (arm_fully_connected_s8(&ctx, &fc_params, &quant_params, &input_dims, input,
                               &filter_dims, weights, &bias_dims, bias, &output_dims,
                               output) != ARM_CMSIS_NN_SUCCESS)
        return 2;
    return memcmp(output, expected, sizeof(output)) != 0;
}}
"""


def build_fc(case, workdir, target):
    """The FC program for `target`, compiled as ../shared/reference builds CMSIS-NN (-O2,
    -ffunction-sections -fdata-sections -std=gnu11, full newlib) and linked with
    --gc-sections."""
    flags = ("-O2", "-ffunction-sections", "-fdata-sections", "-std=gnu11",
             f"-I{CMSIS_NN / 'Include'}", "-Wl,--gc-sections")
    return qemu.build(workdir, {"main.c": fc_program(case)}, flags + ("-lc", "-lgcc"),
                      target=target, objects=[CMSIS_NN / s for s in FC_SOURCES])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", type=Path, help="a fully connected case of ../shared/reference")
    parser.add_argument("--target", choices=sorted(qemu.TARGETS), default="cortex-m55")
    parser.add_argument("--entry", default="arm_fully_connected_s8")
    args = parser.parse_args(argv)
    try:
        qemu.require_tools()
        case = json.loads(args.case.read_text())
    except (qemu.QemuError, OSError, ValueError) as error:
        sys.exit(f"count.py: {error}")
    if case.get("family") != "fully_connected":
        sys.exit(f"count.py: {args.case}: the demonstration harness runs fully_connected cases")
    target = qemu.TARGETS[args.target]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            elf = build_fc(case, tmp, target)
            qemu.run(elf, target=target)                # bit-exact with output_ref, or fails
            result = count(elf, args.entry, target)
        except (qemu.QemuError, ValueError) as error:
            sys.exit(f"count.py: {args.case.name}: {error}")
    result = {"case": case["case"], "target": args.target, "entry": args.entry, **result}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
