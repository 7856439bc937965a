"""armsim.cpu.isa_mve and armsim.cpu.ops_mve against QEMU's Cortex-M55.

Every Armv8.1-M instruction form CMSIS-NN's MVE build executes ran on QEMU (machine
mps3-an547, MVE) as Thumb code built by arm-none-eabi-gcc -mcpu=cortex-m55, unpredicated
and inside a VPST block with edge, random and ragged predicates; tools/mve_qemu/record.py
recorded each operand set and the state after it in tests/data/mve_qemu/.  Here every
recorded set runs through

* the pure semantics (`isa_mve`, the manual-level functions), and
* the counted ops (`ops_mve`): their Python bodies (the traced run) for every case, their
  compiled form (the counted run) for one case of each kind; each op must count exactly
  one instruction of its mnemonic, and set FPSCR.QC only when an active element
  saturated,

and must reproduce QEMU's destination registers, predicate, QC and memory exactly.
Neither QEMU nor the toolchain is needed.
"""
import json
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu import isa_mve, ops, ops_mve
from armsim.cpu.instructions import ARMV81M_MNEMONICS
from armsim.cpu.isa_mve import ALL
from armsim.cpu.kernel import Tracer, kernel, run
from armsim.cpu.machine import QC_FLAG, Memory, SRAM_BASE, build, counts
from armsim.cpu.ops_mve import (dls, le, letp, vaddva_s8, vctp_8, vldrb_u8, vmlava_s8, vmrs,
                                vmsr, vpst, wlstp_8)

DATA = Path(__file__).resolve().parents[1] / "data" / "mve_qemu"
META = json.loads((DATA / "isa.json").read_text())
with np.load(DATA / "isa.npz") as _arrays:
    ARRAYS = {name: _arrays[name] for name in _arrays.files}
FIELD_BYTES = META["field_bytes"]
BUFFER = SRAM_BASE                 # where the op checks place the 32-byte memory buffer
CONDITIONS = {"eq": isa_mve.EQ, "ne": isa_mve.NE, "ge": isa_mve.GE, "lt": isa_mve.LT,
              "gt": isa_mve.GT, "le": isa_mve.LE}


# --- the recorded fields --------------------------------------------------------------------

def _s32(word):
    return int(word) - ((int(word) & 0x80000000) << 1)


def decode(blob, names):
    """One dict per operand set: Q registers as armsim 4-tuples, core registers as signed
    values, p0 and flags as ints, qc as bool, mem as 32 bytes."""
    rows = []
    for row in blob:
        values, at, row = {}, 0, row.tobytes()
        for name in names:
            raw = row[at:at + FIELD_BYTES[name]]
            at += FIELD_BYTES[name]
            if name in ("q0", "q1", "q2", "q3"):
                values[name] = tuple(_s32(int.from_bytes(raw[k:k + 4], "little"))
                                     for k in range(0, 16, 4))
            elif name in ("r0", "r1", "r2", "r3", "r4", "r5"):
                values[name] = _s32(int.from_bytes(raw, "little"))
            elif name in ("p0", "flags"):
                values[name] = int.from_bytes(raw, "little")
            elif name == "qc":
                values[name] = bool(raw[0])
            else:
                values[name] = raw
        rows.append(values)
    return rows


def condition(cond, flags):
    """Whether `cond` holds for APSR.NZCVQ = `flags` (N in bit 4)."""
    n, z, v = flags >> 4 & 1, flags >> 3 & 1, flags >> 1 & 1
    return {"gt": not z and n == v, "lt": n != v, "mi": n == 1}[cond]


# --- the two semantics under test: pure functions, counted ops --------------------------------

class Pure:
    """Models build on the isa_mve functions; memory is the recorded buffer."""
    kind = "pure"
    used = set()

    def fn(self, name):
        Pure.used.add(name)
        return getattr(isa_mve, name)


class Counted:
    """Models build on the ops, on a machine whose sram holds the buffer at BUFFER.  After
    each operand set (`finish`) the machine must have counted exactly the instructions of
    the ops called, one each, and FPSCR.QC must be as it was unless a saturating op ran
    (whose QC the model compares with QEMU's)."""
    kind = "op"
    used = set()

    def __init__(self, fast):
        self.fast = fast
        self.issued = []

    def start(self, mem, qc=False):
        layout = Memory()
        layout.region("sram", SRAM_BASE, 32)
        layout.place("sram", np.frombuffer(mem, np.uint8) if mem else 32)
        self.m = build(layout)
        self.m.st[QC_FLAG] = qc
        self.qc_before = qc
        self.issued = []
        return self.m

    def op(self, name):
        Counted.used.add(name)
        op = ops.OPS[name]
        call = op.fast if self.fast else op.body

        def counted(*args):
            self.issued.append(op.mnemonic)
            return call(self.m, *args)
        return counted

    def finish(self):
        expected = {}
        for mnemonic in self.issued:
            expected[mnemonic] = expected.get(mnemonic, 0) + 1
        assert counts(self.m) == expected, f"counted {counts(self.m)}, issued {expected}"
        if not any(mnemonic.startswith(("vqadd", "vqrdmulh")) for mnemonic in self.issued):
            assert self.qc() == self.qc_before, f"{self.issued} changed FPSCR.QC"

    def memory(self):
        return bytes(self.m.mem[:32])

    def qc(self):
        return bool(self.m.st[QC_FLAG])


def _predicate(case_name, inp):
    return inp["p0"] if case_name.endswith("/vpst") else ALL


def _op_name(mnemonic, suffix=""):
    return mnemonic.replace(".", "_") + suffix


def _image(mem, offset, nbytes):
    """The Q-shaped memory image of `nbytes` bytes at `offset` of the buffer."""
    raw = mem[offset:offset + nbytes] + bytes(16 - nbytes)
    return tuple(_s32(w) for w in np.frombuffer(raw, "<u4"))


# --- models, one builder per kind of instruction ----------------------------------------------
# A builder gets the case (its name, mnemonic, extra parameters) and a semantics provider
# and returns model(inputs) -> outputs; providers are asked for their functions and ops
# when the model is built, so the coverage checks below know what ran.

def load(case, S):
    mnemonic = case["name"].split("/")[0]
    msize, esize = case["extra"]["msize"], case["extra"]["esize"]
    unsigned = ".u" in mnemonic
    if S.kind == "pure":
        VLDR = S.fn("VLDR")

        def model(inp):
            p = _predicate(case["name"], inp)
            image = _image(inp["mem"], inp["r0"], 16 * msize // esize)
            return {"q2": VLDR(image, msize, esize, unsigned, p)}
    else:
        op = S.op(_op_name(mnemonic))

        def model(inp):
            S.start(inp["mem"])
            return {"q2": op(BUFFER + inp["r0"], _predicate(case["name"], inp))}
    return model


def gather(case, S):
    mnemonic = case["name"].split("/")[0]
    esize = case["extra"]["esize"]
    unsigned = ".u" in mnemonic
    if S.kind == "pure":
        VLDR, offset_of, with_byte = S.fn("VLDR"), S.fn("gather_offset"), S.fn("with_byte")

        def model(inp):
            p = _predicate(case["name"], inp)
            image = isa_mve.ZERO
            for e in range(128 // esize):
                if (p >> (e * esize // 8)) & 1:
                    image = with_byte(image, e, inp["mem"][offset_of(inp["q1"], e, esize)])
            return {"q2": VLDR(image, 8, esize, unsigned, p)}
    else:
        op = S.op(_op_name(mnemonic))

        def model(inp):
            S.start(inp["mem"])
            return {"q2": op(BUFFER, inp["q1"], _predicate(case["name"], inp))}
    return model


def vld2(case, S):
    patterns = [int(part[4]) for part in case["name"].split("+")]
    if S.kind == "pure":
        VLD2, offsets_of = S.fn("VLD2"), S.fn("VLD2_offsets")

        def model(inp):
            qa, qb = inp["q0"], inp["q1"]
            for pattern in patterns:
                words = tuple(_image(inp["mem"], o, 4)[0] for o in offsets_of(pattern))
                qa, qb = VLD2(pattern, words, qa, qb)
            return {"q0": qa, "q1": qb}
    else:
        steps = [S.op(f"vld2{pattern}_8") for pattern in patterns]

        def model(inp):
            S.start(inp["mem"])
            qa, qb = inp["q0"], inp["q1"]
            for op in steps:
                qa, qb = op(BUFFER, qa, qb)
            return {"q0": qa, "q1": qb}
    return model


def store(case, S):
    mnemonic = case["name"].split("/")[0]
    msize, esize = case["extra"]["msize"], case["extra"]["esize"]
    if S.kind == "pure":
        image_of, enables_of = S.fn("VSTR_image"), S.fn("memory_byte_enables")

        def model(inp):
            p = _predicate(case["name"], inp)
            image = b"".join(int(w & 0xFFFFFFFF).to_bytes(4, "little")
                             for w in image_of(inp["q0"], msize, esize))
            enables = enables_of(p, msize, esize)
            mem = bytearray(inp["mem"])
            for i in range(16):
                if (enables >> i) & 1:
                    mem[inp["r0"] + i] = image[i]
            return {"mem": bytes(mem)}
    else:
        op = S.op(_op_name(mnemonic))

        def model(inp):
            S.start(inp["mem"])
            op(BUFFER + inp["r0"], inp["q0"], _predicate(case["name"], inp))
            return {"mem": S.memory()}
    return model


def scatter(case, S):
    mnemonic = case["name"].split("/")[0]
    msize = case["extra"]["msize"]
    if S.kind == "pure":
        offset_of, element = S.fn("gather_offset"), S.fn("uelement")

        def model(inp):
            p = _predicate(case["name"], inp)
            mem = bytearray(inp["mem"])
            for e in range(4):
                if (p >> (4 * e)) & 1:
                    at = offset_of(inp["q1"], e, 32)
                    value = element(inp["q0"][e], 0, 32)
                    mem[at:at + msize // 8] = value.to_bytes(4, "little")[:msize // 8]
            return {"mem": bytes(mem)}
    else:
        op = S.op(_op_name(mnemonic))

        def model(inp):
            S.start(inp["mem"])
            op(BUFFER, inp["q1"], inp["q0"], _predicate(case["name"], inp))
            return {"mem": S.memory()}
    return model


# element-wise: mnemonic -> (isa function, its operand order, sets QC)
ELEMENTWISE = {"vadd": "VADD", "vsub": "VSUB", "vmul": "VMUL", "vmax": "VMAX", "vmin": "VMIN",
               "vqadd": "VQADD", "vqrdmulh": "VQRDMULH", "vshl": "VSHL", "vrshl": "VRSHL"}
SATURATING = {"vqadd", "vqrdmulh"}


def elementwise(case, S):
    """Qd = Q2, Qn = Q0, Qm = Q1 (VSHL/VRSHL: Qm = Q0 the values, Qn = Q1 the amounts);
    `/r` forms: the scalar R1."""
    name = case["name"]
    mnemonic = name.split("/")[0]
    base = mnemonic.split(".")[0]
    esize = case["extra"]["esize"]
    scalar = "/r" in name
    shift_by_scalar = scalar and base in ("vshl", "vrshl")        # VSHL Qda, Rm
    saturating = base in SATURATING
    if S.kind == "pure":
        fn = S.fn(ELEMENTWISE[base] + ("_scalar" if scalar else ""))

        def model(inp):
            p = _predicate(name, inp)
            if shift_by_scalar:
                result = fn(inp["q2"], inp["r1"], esize, p)
            else:
                result = fn(inp["q0"], inp["r1"] if scalar else inp["q1"], inp["q2"], esize, p)
            qc = False
            if saturating:
                result, qc = result
            return {"q2": result, "qc": inp.get("qc", False) or qc}
    else:
        op = S.op(_op_name(mnemonic, "_r" if scalar else ""))

        def model(inp):
            S.start(None, inp.get("qc", False))
            p = _predicate(name, inp)
            if shift_by_scalar:
                result = op(inp["q2"], inp["r1"], p)
            else:
                result = op(inp["q2"], inp["q0"], inp["r1"] if scalar else inp["q1"], p)
            return {"q2": result, "qc": S.qc()}
    return model


def bitwise(case, S):
    name = case["name"]
    mnemonic = name.split("/")[0]
    if S.kind == "pure":
        fn = S.fn("VAND" if mnemonic == "vand" else "VORR")

        def model(inp):
            p = _predicate(name, inp)
            if mnemonic == "vand":
                return {"q2": fn(inp["q0"], inp["q1"], inp["q2"], p)}
            return {"q2": fn(inp["q1"], inp["q1"], inp["q2"], p)}
    else:
        op = S.op(mnemonic)

        def model(inp):
            S.start(None)
            p = _predicate(name, inp)
            if mnemonic == "vand":
                return {"q2": op(inp["q2"], inp["q0"], inp["q1"], p)}
            return {"q2": op(inp["q2"], inp["q1"], p)}
    return model


def vshr(case, S):
    name = case["name"]
    mnemonic = name.split("#")[0]
    esize, imm = case["extra"]["esize"], case["extra"]["imm"]
    if S.kind == "pure":
        fn = S.fn("VSHR")
        return lambda inp: {"q2": fn(inp["q0"], inp["q2"], imm, esize, _predicate(name, inp))}
    op = S.op(_op_name(mnemonic))

    def model(inp):
        S.start(None)
        return {"q2": op(inp["q2"], inp["q0"], imm, _predicate(name, inp))}
    return model


def vdup(case, S):
    name = case["name"]
    esize = case["extra"]["esize"]
    if S.kind == "pure":
        fn = S.fn("VDUP")
        return lambda inp: {"q2": fn(inp["r1"], inp["q2"], esize, _predicate(name, inp))}
    op = S.op(_op_name(name.split("/")[0]))

    def model(inp):
        S.start(None)
        return {"q2": op(inp["q2"], inp["r1"], _predicate(name, inp))}
    return model


def vidup(case, S):
    name = case["name"]
    imm = case["extra"]["imm"]
    if S.kind == "pure":
        fn = S.fn("VIDUP")

        def model(inp):
            q, rn = fn(inp["r2"], imm, inp["q2"], 16, _predicate(name, inp))
            return {"q2": q, "r2": rn}
    else:
        op = S.op("vidup_u16")

        def model(inp):
            S.start(None)
            q, rn = op(inp["q2"], inp["r2"], imm, _predicate(name, inp))
            return {"q2": q, "r2": rn}
    return model


def widen_narrow(case, S):
    name = case["name"]
    mnemonic = name.split("/")[0]
    esize, top = case["extra"]["esize"], case["extra"]["top"]
    if S.kind == "pure":
        fn = S.fn("VMOVL" if mnemonic.startswith("vmovl") else "VMOVN")
        return lambda inp: {"q2": fn(inp["q0"], inp["q2"], esize, top, _predicate(name, inp))}
    op = S.op(_op_name(mnemonic))

    def model(inp):
        S.start(None)
        return {"q2": op(inp["q2"], inp["q0"], _predicate(name, inp))}
    return model


def vpsel(case, S):
    if S.kind == "pure":
        fn = S.fn("VPSEL")
        return lambda inp: {"q2": fn(inp["q0"], inp["q1"], inp["p0"])}
    op = S.op("vpsel")

    def model(inp):
        S.start(None)
        return {"q2": op(inp["q0"], inp["q1"], inp["p0"])}
    return model


def reduction(case, S):
    """VMLAVA / VMLADAVAX / VMLAV (Rda = R2), VMLALVA / VMLALDAVAX (R2, R3), VADDV(A)."""
    name = case["name"]
    mnemonic = name.split("/")[0]
    esize = case["extra"]["esize"]
    exchange = "x." in mnemonic
    accumulate = mnemonic.split(".")[0].endswith(("a", "ax"))
    long = mnemonic.startswith(("vmlalva", "vmlaldav"))
    if S.kind == "pure":
        fn = S.fn("VADDV" if mnemonic.startswith("vaddv") else "VMLALDAV" if long
                  else "VMLADAV")

        def model(inp):
            p = _predicate(name, inp)
            rda = inp["r2"] if accumulate else 0
            if mnemonic.startswith("vaddv"):
                return {"r2": fn(rda, inp["q0"], esize, p)}
            if long:
                lo, hi = fn(inp["r2"], inp["r3"], inp["q0"], inp["q1"], esize, exchange, p)
                return {"r2": lo, "r3": hi}
            return {"r2": fn(rda, inp["q0"], inp["q1"], esize, exchange, p)}
        return model
    op = S.op(_op_name(mnemonic))

    def model(inp):
        S.start(None)
        p = _predicate(name, inp)
        if mnemonic == "vaddv.s8":
            return {"r2": op(inp["q0"], p)}
        if mnemonic == "vaddva.s8":
            return {"r2": op(inp["r2"], inp["q0"], p)}
        if long:
            lo, hi = op(inp["r2"], inp["r3"], inp["q0"], inp["q1"], p)
            return {"r2": lo, "r3": hi}
        return {"r2": op(inp["r2"], inp["q0"], inp["q1"], p)}
    return model


def vcmp(case, S):
    """VCMP.<dt> <cond>, Q0, R1 (the `/r` forms) or Q0, Q1."""
    name = case["name"]
    cond = CONDITIONS[name.split("/")[0].split(".")[-1]]
    scalar = "/r" in name
    if S.kind == "pure":
        fn = S.fn("VCMP_scalar" if scalar else "VCMP")
        return lambda inp: {"p0": fn(inp["q0"], inp["r1"] if scalar else inp["q1"], 32, cond,
                                     _predicate(name, inp))}
    op = S.op("vcmp_s32_r")

    def model(inp):
        S.start(None)
        return {"p0": op(inp["q0"], inp["r1"], cond, _predicate(name, inp))}
    return model


def vctp(case, S):
    name = case["name"]
    esize = case["extra"]["esize"]
    if S.kind == "pure":
        fn = S.fn("VCTP")
        return lambda inp: {"p0": fn(inp["r1"], esize, _predicate(name, inp))}
    op = S.op(f"vctp_{esize}")

    def model(inp):
        S.start(None)
        return {"p0": op(inp["r1"], _predicate(name, inp))}
    return model


def vmsr_vmrs(case, S):
    if S.kind == "pure":
        fn = S.fn("P0_from_register")

        def model(inp):
            p0 = fn(inp["r1"])
            return {"p0": p0, "r2": fn(p0)}
        return model
    vmsr, vmrs = S.op("vmsr"), S.op("vmrs")

    def model(inp):
        S.start(None)
        p0 = vmsr(inp["r1"])
        return {"p0": p0, "r2": vmrs(p0)}
    return model


def lane_move(case, S):
    extra = case["extra"]
    if case["name"].startswith("vmov.32"):
        if S.kind == "pure":
            fn = S.fn("VMOV_from_lane")
            return lambda inp: {"r2": fn(inp["q0"], extra["lane"])}
        op = S.op("vmov_32")

        def model(inp):
            S.start(None)
            return {"r2": op(inp["q0"], extra["lane"])}
        return model
    if S.kind == "pure":
        fn = S.fn("VMOV_to_lanes")
        return lambda inp: {"q0": fn(inp["q0"], extra["lane"], extra["lane2"], inp["r1"],
                                     inp["r2"])}
    op = S.op("vmov_rr")

    def model(inp):
        S.start(None)
        return {"q0": op(inp["q0"], extra["lane"], extra["lane2"], inp["r1"], inp["r2"])}
    return model


def asrl(case, S):
    register = case["name"] == "asrl/r"
    if S.kind == "pure":
        fn = S.fn("ASRL_register" if register else "ASRL")

        def model(inp):
            lo, hi = fn(inp["r0"], inp["r1"], inp["r2"] if register else case["extra"]["imm"])
            return {"r0": lo, "r1": hi}
        return model
    op = S.op("asrl_r" if register else "asrl")

    def model(inp):
        S.start(None)
        lo, hi = op(inp["r0"], inp["r1"], inp["r2"] if register else case["extra"]["imm"])
        return {"r0": lo, "r1": hi}
    return model


def select(case, S):
    """CINC / CNEG Rd, Rn, cond and CSNEG Rd, Rn, Rm, cond (Rn = ZR in the /zr case)."""
    name = case["name"]
    mnemonic = name.split(".")[0]
    cond = case["extra"]["cond"]
    rn_of = (lambda inp: 0) if name.endswith("/zr") else (lambda inp: inp["r0"])
    if S.kind == "pure":
        csinc, csneg = S.fn("CSINC"), S.fn("CSNEG")

        def model(inp):
            holds = condition(cond, inp["flags"])
            if mnemonic == "cinc":
                return {"r2": csinc(inp["r1"], inp["r1"], not holds)}
            if mnemonic == "cneg":
                return {"r2": csneg(inp["r1"], inp["r1"], not holds)}
            return {"r2": csneg(rn_of(inp), inp["r1"], holds)}
        return model
    op = S.op(mnemonic)

    def model(inp):
        S.start(None)
        holds = condition(cond, inp["flags"])
        if mnemonic == "csneg":
            return {"r2": op(rn_of(inp), inp["r1"], holds)}
        return {"r2": op(inp["r1"], holds)}
    return model


def dls_le(case, S):
    if S.kind == "pure":
        return lambda inp: {"r3": inp["r1"]}        # DLS LR, R1 ... LE: R1 iterations
    dls, le = S.op("dls"), S.op("le")

    def model(inp):
        S.start(None)
        dls()
        iterations = 0
        while True:
            iterations += 1                          # adds r3, #1 (not under test)
            taken = iterations < inp["r1"]
            le(taken)
            if not taken:
                return {"r3": iterations}
    return model


def tail_predicated_loop(case, S):
    """WLSTP.<esize> LR, R1 ... LETP over R1 elements of the buffer: R2 += the body's
    reduction of each (tail-predicated) vector, R3 counts the iterations."""
    esize = case["extra"]["esize"]
    load_name = {8: "vldrb_u8", 16: "vldrh_u16", 32: "vldrw_u32"}[esize]
    reduce_name = {8: "vaddva_s8", 16: "vmlava_s16", 32: "vmlava_s32"}[esize]
    if S.kind == "pure":
        iterations_of, tail, VLDR = S.fn("loop_iterations"), S.fn("tail_mask"), S.fn("VLDR")
        VADDV, VMLADAV = S.fn("VADDV"), S.fn("VMLADAV")

        def model(inp):
            n, acc = inp["r1"], inp["r2"]
            iterations = iterations_of(n, esize)
            for k in range(iterations):
                p = tail(n - k * (128 // esize), esize)
                q = VLDR(_image(inp["mem"], 16 * k, 16), esize, esize, True, p)
                acc = VADDV(acc, q, 8, p) if esize == 8 else VMLADAV(acc, q, q, esize, False, p)
            return {"r2": acc, "r3": iterations}
        return model
    wlstp, letp = S.op(f"wlstp_{esize}"), S.op("letp")
    load_op, reduce_op = S.op(load_name), S.op(reduce_name)

    def model(inp):
        m = S.start(inp["mem"])
        n, acc, k = inp["r1"], inp["r2"], 0
        wlstp(n == 0)
        remaining = n
        while remaining > 0:
            p = isa_mve.tail_mask(remaining, esize)
            q = load_op(BUFFER + 16 * k, p)
            acc = reduce_op(acc, q, p) if esize == 8 else reduce_op(acc, q, q, p)
            k += 1
            remaining -= 128 // esize
            letp(remaining > 0)
        assert counts(m).get("letp", 0) == k
        return {"r2": acc, "r3": k}
    return model


def builder(name):
    """The model builder of case `name`."""
    mnemonic = name.split("/")[0]
    base = mnemonic.split(".")[0].split("#")[0]
    if name.startswith("vld2"):
        return vld2
    if mnemonic.endswith(".gather"):
        return gather
    if mnemonic.endswith(".scatter"):
        return scatter
    if base.startswith("vldr"):
        return load
    if base.startswith("vstr"):
        return store
    if base in ELEMENTWISE:
        return elementwise
    table = {"vand": bitwise, "vmov": lane_move if mnemonic.startswith("vmov.") else bitwise,
             "vshr": vshr, "vdup": vdup, "vidup": vidup, "vmovlb": widen_narrow,
             "vmovlt": widen_narrow, "vmovnb": widen_narrow, "vmovnt": widen_narrow,
             "vpsel": vpsel, "vmlava": reduction, "vmladavax": reduction, "vmlav": reduction,
             "vmlalva": reduction, "vmlaldavax": reduction, "vaddva": reduction,
             "vaddv": reduction, "vcmp": vcmp, "vctp": vctp, "vmsr+vmrs": vmsr_vmrs,
             "asrl": asrl, "cinc": select, "cneg": select, "csneg": select, "dls+le": dls_le,
             "wlstp": tail_predicated_loop}
    return table[base]


def _has_op(name):
    """Cases whose instruction the kernels execute have an op; the forms recorded to pin
    down the pure functions' parameters (exchange, no accumulation, EQ/NE, VCMP of two
    vectors) have none."""
    mnemonic = name.split("/")[0].split("#")[0]
    return not (mnemonic.startswith(("vmladavax", "vmlaldavax", "vmlav.", "vcmp.i32"))
                or mnemonic == "vcmp.s32.gt")


def _built(case, provider):
    return builder(case["name"])(case, provider), provider


CASES = [dict(name=name, **meta) for name, meta in META["cases"].items()]
PURE_MODELS = [(c, builder(c["name"])(c, Pure())) for c in CASES]
OP_MODELS = [(c, *_built(c, Counted(fast=False))) for c in CASES if _has_op(c["name"])]
# the compiled ops: one case of each kind of op (memory, element-wise, saturating, scalar...)
FAST_CASES = ("vldrb.s32/vpst", "vldrb.u8.gather/vpst", "vld20.8+vld21.8", "vstrb.16/vpst",
              "vstrh.32.scatter/vpst", "vqrdmulh.s32/r/vpst", "vrshl.s32/r/vpst",
              "vmlava.s8/vpst", "vmlalva.s16/vpst", "vmovnt.i32/vpst", "vcmp.s32.gt/r/vpst",
              "vctp.8", "asrl/r", "csneg.mi", "wlstp.8+letp")
FAST_MODELS = [(c, *_built(c, Counted(fast=True))) for c in CASES if c["name"] in FAST_CASES]


def _check(case, model, provider=None):
    inputs = decode(ARRAYS[case["name"] + ":in"], case["inputs"])
    expected = decode(ARRAYS[case["name"] + ":out"], case["outputs"])
    bad = []
    for inp, want in zip(inputs, expected):
        got = model(inp)
        if provider is not None:
            provider.finish()
        got = {k: got[k] for k in want}
        if got != want:
            bad.append(f"in {inp}\n   armsim {got}\n   qemu   {want}")
    assert not bad, (f"{case['name']} ({case['asm']!r}): {len(bad)} of {len(inputs)} operand "
                     f"sets differ from QEMU:\n" + "\n".join(bad[:4]))
    return len(inputs)


@pytest.mark.parametrize("case,model", PURE_MODELS, ids=[c["name"] for c, _ in PURE_MODELS])
def test_pure_semantics_match_qemu(case, model):
    assert _check(case, model) == case["sets"] >= 24


@pytest.mark.parametrize("case,model,provider", OP_MODELS,
                         ids=[c["name"] for c, _, _ in OP_MODELS])
def test_traced_ops_match_qemu(case, model, provider):
    _check(case, model, provider)


@pytest.mark.parametrize("case,model,provider", FAST_MODELS,
                         ids=[c["name"] for c, _, _ in FAST_MODELS])
def test_compiled_ops_match_qemu(case, model, provider):
    _check(case, model, provider)


def test_every_mve_op_and_function_is_verified():
    """Every op of ops_mve runs in a case, and every instruction function of isa_mve (the
    upper-case names) is a pure model's: an op or function added without a QEMU case
    fails here."""
    assert sorted(set(ops_mve.NAMES) - Counted.used - {"vpst", "vpush", "vpop", "vldr_lit",
                                                       "vldr_spill"}) == []
    functions = {name for name in dir(isa_mve) if name[0].isupper() and callable(
        getattr(isa_mve, name))}
    assert sorted(functions - Pure.used) == []
    assert len(FAST_MODELS) == len(FAST_CASES)


def test_every_armv81m_mnemonic_has_an_op():
    """instructions.py lists no Armv8.1-M mnemonic that no op issues."""
    issued = {ops.OPS[name].mnemonic for name in ops_mve.NAMES}
    assert sorted(set(ARMV81M_MNEMONICS) - issued) == []


def test_issue_only_ops_count_their_slot():
    """VPST, VPUSH/VPOP and the FP-register literal and spill loads compute nothing the
    kernel sees: they issue one instruction (VPUSH/VPOP also move stack words)."""
    from armsim.cpu.machine import STACK_BEATS, counter
    m = build(Memory())
    ops.OPS["vpst"].body(m)
    ops.OPS["vldr_lit"].body(m)
    ops.OPS["vldr_spill"].body(m)
    ops.OPS["vpush"].body(m, 8)
    ops.OPS["vpop"].body(m, 8)
    assert counts(m) == {"vpst": 1, "vldr": 2, "vpush": 1, "vpop": 1}
    assert counter(m, STACK_BEATS) == 32


def test_recorded_data_is_whole():
    """The data holds every case of tools/mve_qemu with its operand sets, and the tools
    that made it."""
    assert len(CASES) >= 180 and sum(c["sets"] for c in CASES) >= 8000
    assert "qemu-system-arm" in META["tools"] and META["machine"] == "mps3-an547"
    for case in CASES:
        n = case["sets"]
        assert ARRAYS[case["name"] + ":in"].shape[0] == n == ARRAYS[case["name"] + ":out"].shape[0]


def _fails(case_name, model):
    case = next(c for c in CASES if c["name"] == case_name)
    with pytest.raises(AssertionError, match="differ from QEMU"):
        _check(case, model)


def test_harness_catches_broken_semantics():
    """Deliberately wrong variants fail the same comparison: VQRDMULH without its rounding
    constant, a predicated load that keeps the old lanes instead of zeroing them, VRSHL
    that truncates instead of rounding, a reduction that ignores the predicate."""
    def unrounded(inp):
        lanes = []
        for a, b in zip(inp["q0"], inp["q1"]):
            lanes.append(isa_mve.signed_sat_q((a * b) >> 31, 32)[0])
        want = isa_mve.VQRDMULH(inp["q0"], inp["q1"], inp["q2"], 32, inp["p0"])[1]
        merged = tuple(isa_mve.merge(old, new, isa_mve.beat_mask(inp["p0"], b))
                       for b, (old, new) in enumerate(zip(inp["q2"], lanes)))
        return {"q2": merged, "qc": inp["qc"] or want}
    _fails("vqrdmulh.s32/vpst", unrounded)

    def keeps_old_lanes(inp):
        loaded = isa_mve.VLDR(_image(inp["mem"], inp["r0"], 16), 8, 8, True, ALL)
        return {"q2": tuple(isa_mve.merge(old, new, isa_mve.beat_mask(inp["p0"], b))
                            for b, (old, new) in enumerate(zip(inp["q2"], loaded)))}
    _fails("vldrb.u8/vpst", keeps_old_lanes)

    _fails("vrshl.s32/vpst", lambda inp: {"q2": isa_mve.VSHL(inp["q0"], inp["q1"], inp["q2"],
                                                             32, inp["p0"])})
    _fails("vmlava.s8/vpst", lambda inp: {"r2": isa_mve.VMLADAV(inp["r2"], inp["q0"], inp["q1"],
                                                                8, False, ALL)})


# --- the ops inside a compiled kernel -------------------------------------------------------

@kernel
def _dot_s8_mve(m, lhs, rhs, n, rhs_offset):
    """sum((lhs[i] + 0) * rhs[i]) + rhs_offset * sum(lhs[i]) over n int8 elements, the way
    CMSIS-NN's MVE kernels lower it: a tail-predicated WLSTP/LETP loop of VLDRB + VMLAVA +
    VADDVA, then a VPST-predicated pass over the same data driven by VCTP."""
    acc = 0
    lhs_sum = 0
    wlstp_8(m, n == 0)
    remaining = n
    k = 0
    while remaining > 0:
        p = isa_mve.tail_mask(remaining, 8)           # FPSCR.LTPSIZE on the last iteration
        a = vldrb_u8(m, lhs + 16 * k, p)
        b = vldrb_u8(m, rhs + 16 * k, p)
        acc = vmlava_s8(m, acc, a, b, p)
        lhs_sum = vaddva_s8(m, lhs_sum, a, p)
        remaining -= 16
        k += 1
        letp(m, remaining > 0)
    dls(m)
    again = 0
    for j in range((n + 15) // 16):
        p0 = vmsr(m, vmrs(m, vctp_8(m, n - 16 * j, ALL)))
        vpst(m)
        a = vldrb_u8(m, lhs + 16 * j, p0)
        again = vmlava_s8(m, again, a, a, p0)
        le(m, j + 1 < (n + 15) // 16)
    return acc + rhs_offset * lhs_sum, again


def test_ops_compile_in_a_kernel_and_trace_the_same():
    """The ops inside one @kernel: the counted run (numba) and the traced run agree with
    numpy and with each other instruction by instruction; tail predication never reads
    past the 37 elements (the buffers end there)."""
    rng = np.random.default_rng(26)
    n = 37
    lhs = rng.integers(-128, 128, n).astype(np.int8)
    rhs = rng.integers(-128, 128, n).astype(np.int8)
    layout = Memory()
    layout.region("sram", SRAM_BASE, 0)
    a, b = layout.place("sram", lhs), layout.place("sram", rhs)
    layout.sizes[0] = b + n - SRAM_BASE                  # nothing readable past rhs
    expected = (int(lhs.astype(np.int64) @ rhs) + 7 * int(lhs.sum()),
                int(lhs.astype(np.int64) @ lhs))
    fast = build(layout)
    assert run(_dot_s8_mve, fast, a, b, n, 7) == expected
    tracer = Tracer()
    slow = build(layout)
    assert run(_dot_s8_mve, slow, a, b, n, 7, tracer=tracer) == expected
    assert counts(fast) == counts(slow) == {
        "wlstp.8": 1, "vldrb.u8": 9, "vmlava.s8": 6, "vaddva.s8": 3, "letp": 3, "dls": 1,
        "vctp.8": 3, "vmsr": 3, "vmrs": 3, "vpst": 3, "le": 3}
    assert [r.mnemonic for r in tracer.records][:4] == ["wlstp.8", "vldrb.u8", "vldrb.u8",
                                                        "vmlava.s8"]
    assert tracer.records[1].result == isa_mve.VLDR(
        tuple(int.from_bytes(lhs[i:i + 4].tobytes(), "little", signed=True)
              for i in range(0, 16, 4)), 8, 8, True, ALL)
