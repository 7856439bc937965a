"""The instruction cases run on QEMU's Cortex-M55: one Thumb snippet per instruction form.

Every case runs in the loop of `harness.source` once per operand set: the machine state
(Q0-Q3, R0-R5, VPR.P0, FPSCR, APSR and a 32-byte memory buffer addressed by R6) comes
from a record, the snippet executes, and the state after it is written back.  `inputs`
names the fields the case draws (and the generator of each), `outputs` the fields the
test compares.  The instruction under test uses Q0-Q3, R0-R5 (R6 = the memory buffer,
R11, R12 and LR are free); it must leave R7-R10 alone.

Generators (`operands.py` draws them):
  ("lanes", esize, kind)   a Q register of esize-bit lanes; kind "int" (edge and random
                           values), "shift" (shift amounts in each lane's low byte),
                           ("offset", limit, align) gather offsets below `limit`
  ("reg", kind)            a core register: "word", "shift", ("offset", limit, align)
                           (an aligned offset 0..limit), ("count", limit[, low]) (an
                           element count low..limit)
  ("p0", esize)            a predicate: all, none, whole elements, or any byte pattern
  "qc"                     FPSCR.QC before the instruction
  "flags"                  APSR.NZCVQ before the instruction
  "mem"                    the 32 bytes of the memory buffer
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Case:
    name: str
    asm: str
    inputs: dict
    outputs: tuple
    sets: int = 96
    notes: str = ""
    extra: dict = field(default_factory=dict)     # parameters the test's model reads


PLAIN_SETS = 24           # unpredicated forms: the predicated twin covers the lanes
PREDICATED_SETS = 64


def _lanes(esize, kind="int"):
    return ("lanes", esize, kind)


def _both(cases, name, asm, inputs, outputs, p0_esize, setup="", **extra):
    """An instruction form unpredicated and inside a VPST block (predicate = P0), after
    the `setup` instruction (e.g. making R0 an address)."""
    mnemonic, _, rest = asm.partition(" ")
    base, dot, dtype = mnemonic.partition(".")
    first = f"{setup}\n    " if setup else ""
    predicated = f"{first}vpst\n    {base}t{dot}{dtype} {rest}"
    cases.append(Case(name, first + asm, inputs, outputs, PLAIN_SETS, extra=extra))
    cases.append(Case(name + "/vpst", predicated, {**inputs, "p0": ("p0", p0_esize)}, outputs,
                      PREDICATED_SETS, extra=extra))


def build_cases():
    """Every case, in a fixed order (the recorded data keeps it)."""
    c = []

    # --- contiguous loads (R0 = offset into the buffer, made an address first)
    for mnemonic, msize, esize in (("vldrb.u8", 8, 8), ("vldrb.s16", 8, 16),
                                   ("vldrb.s32", 8, 32), ("vldrh.u16", 16, 16),
                                   ("vldrh.s32", 16, 32), ("vldrw.u32", 32, 32)):
        access = 16 * msize // esize
        _both(c, mnemonic, f"{mnemonic} q2, [r0]",
              {"r0": ("reg", ("offset", 32 - access, msize // 8)), "mem": "mem",
               "q2": _lanes(32)}, ("q2",), esize, setup="add r0, r6", msize=msize, esize=esize)
    # --- gathers: offsets in Q1 from the buffer's base
    for mnemonic, esize in (("vldrb.u8", 8), ("vldrb.u16", 16), ("vldrb.s32", 32)):
        _both(c, mnemonic + ".gather", f"{mnemonic} q2, [r6, q1]",
              {"q1": _lanes(esize, ("offset", 32, 1)), "mem": "mem", "q2": _lanes(32)},
              ("q2",), esize, msize=8, esize=esize)
    # --- deinterleaving loads: each half alone, and the pair
    c.append(Case("vld20.8", "vld20.8 {q0, q1}, [r6]", {"mem": "mem", "q0": _lanes(8),
                                                        "q1": _lanes(8)}, ("q0", "q1")))
    c.append(Case("vld21.8", "vld21.8 {q0, q1}, [r6]", {"mem": "mem", "q0": _lanes(8),
                                                        "q1": _lanes(8)}, ("q0", "q1")))
    c.append(Case("vld20.8+vld21.8", "vld20.8 {q0, q1}, [r6]\n    vld21.8 {q0, q1}, [r6]",
                  {"mem": "mem", "q0": _lanes(8), "q1": _lanes(8)}, ("q0", "q1")))

    # --- contiguous stores (R0 = offset) and scatters
    for mnemonic, msize, esize in (("vstrb.8", 8, 8), ("vstrb.16", 8, 16), ("vstrb.32", 8, 32),
                                   ("vstrh.16", 16, 16), ("vstrh.32", 16, 32),
                                   ("vstrw.32", 32, 32)):
        access = 16 * msize // esize
        _both(c, mnemonic, f"{mnemonic} q0, [r0]",
              {"r0": ("reg", ("offset", 32 - access, msize // 8)), "mem": "mem",
               "q0": _lanes(esize)}, ("mem",), esize, msize=msize, esize=esize,
              setup="add r0, r6")
    for mnemonic, msize in (("vstrb.32", 8), ("vstrh.32", 16)):
        _both(c, mnemonic + ".scatter", f"{mnemonic} q0, [r6, q1]",
              {"q1": _lanes(32, ("offset", 32, msize // 8)), "mem": "mem", "q0": _lanes(32)},
              ("mem",), 32, msize=msize, esize=32)

    # --- element-wise, vector by vector (Qd = Q2, Qn = Q0, Qm = Q1)
    for mnemonic, esize in (("vadd.i16", 16), ("vadd.i32", 32), ("vmul.i16", 16),
                            ("vmul.i32", 32), ("vmax.s8", 8), ("vmax.s16", 16),
                            ("vmax.s32", 32), ("vmin.s8", 8), ("vmin.s16", 16),
                            ("vmin.s32", 32), ("vqadd.s32", 32), ("vqrdmulh.s32", 32)):
        _both(c, mnemonic, f"{mnemonic} q2, q0, q1",
              {"q0": _lanes(esize), "q1": _lanes(esize), "q2": _lanes(esize), "qc": "qc"},
              ("q2", "qc"), esize, esize=esize)
    _both(c, "vand", "vand q2, q0, q1", {"q0": _lanes(8), "q1": _lanes(8), "q2": _lanes(8)},
          ("q2",), 8)
    _both(c, "vmov", "vmov q2, q1", {"q1": _lanes(8), "q2": _lanes(8)}, ("q2",), 8)
    # shifts by a vector: VSHL/VRSHL Qd, Qm, Qn (Qm = Q0 the values, Qn = Q1 the amounts)
    for mnemonic in ("vshl.s32", "vrshl.s32"):
        _both(c, mnemonic, f"{mnemonic} q2, q0, q1",
              {"q0": _lanes(32), "q1": _lanes(32, "shift"), "q2": _lanes(32)}, ("q2",), 32,
              esize=32)
    # --- vector by scalar (R1)
    for mnemonic, esize in (("vadd.i32", 32), ("vsub.i32", 32), ("vmul.i32", 32),
                            ("vqrdmulh.s32", 32)):
        _both(c, mnemonic + "/r", f"{mnemonic} q2, q0, r1",
              {"q0": _lanes(esize), "r1": ("reg", "word"), "q2": _lanes(esize), "qc": "qc"},
              ("q2", "qc"), esize, esize=esize)
    for mnemonic, esize in (("vshl.s32", 32), ("vrshl.s8", 8), ("vrshl.s32", 32)):
        _both(c, mnemonic + "/r", f"{mnemonic} q2, r1",
              {"q2": _lanes(esize), "r1": ("reg", "shift")}, ("q2",), esize, esize=esize)
    for mnemonic, esize, immediates in (("vshr.s8", 8, (1, 3, 7, 8)),
                                        ("vshr.s32", 32, (1, 16, 31, 32))):
        for imm in immediates:
            _both(c, f"{mnemonic}#{imm}", f"{mnemonic} q2, q0, #{imm}",
                  {"q0": _lanes(esize), "q2": _lanes(esize)}, ("q2",), esize, esize=esize,
                  imm=imm)
    for mnemonic, esize in (("vdup.8", 8), ("vdup.16", 16), ("vdup.32", 32)):
        _both(c, mnemonic, f"{mnemonic} q2, r1", {"r1": ("reg", "word"), "q2": _lanes(esize)},
              ("q2",), esize, esize=esize)
    for imm in (1, 2, 4, 8):
        _both(c, f"vidup.u16#{imm}", f"vidup.u16 q2, r2, #{imm}",
              {"r2": ("reg", "word"), "q2": _lanes(16)}, ("q2", "r2"), 16, imm=imm)
    for mnemonic, esize, top in (("vmovlb.s8", 8, 0), ("vmovlt.s8", 8, 1),
                                 ("vmovlb.s16", 16, 0), ("vmovlt.s16", 16, 1)):
        _both(c, mnemonic, f"{mnemonic} q2, q0", {"q0": _lanes(esize), "q2": _lanes(2 * esize)},
              ("q2",), 2 * esize, esize=esize, top=top)
    for mnemonic, esize, top in (("vmovnb.i16", 8, 0), ("vmovnt.i16", 8, 1),
                                 ("vmovnb.i32", 16, 0), ("vmovnt.i32", 16, 1)):
        _both(c, mnemonic, f"{mnemonic} q2, q0", {"q0": _lanes(2 * esize), "q2": _lanes(esize)},
              ("q2",), esize, esize=esize, top=top)
    c.append(Case("vpsel", "vpsel q2, q0, q1", {"q0": _lanes(8), "q1": _lanes(8),
                                                "p0": ("p0", 8)}, ("q2",), PREDICATED_SETS))

    # --- reductions (Rda = R2, RdaHi = R3)
    for mnemonic, esize in (("vmlava.s8", 8), ("vmlava.s16", 16), ("vmlava.s32", 32),
                            ("vmladavax.s16", 16), ("vmlav.s8", 8)):
        _both(c, mnemonic, f"{mnemonic} r2, q0, q1",
              {"q0": _lanes(esize), "q1": _lanes(esize), "r2": ("reg", "word")}, ("r2",),
              esize, esize=esize)
    for mnemonic in ("vmlalva.s16", "vmlaldavax.s16"):
        _both(c, mnemonic, f"{mnemonic} r2, r3, q0, q1",
              {"q0": _lanes(16), "q1": _lanes(16), "r2": ("reg", "word"), "r3": ("reg", "word")},
              ("r2", "r3"), 16, esize=16)
    _both(c, "vaddva.s8", "vaddva.s8 r2, q0", {"q0": _lanes(8), "r2": ("reg", "word")},
          ("r2",), 8, esize=8)
    _both(c, "vaddv.s8", "vaddv.s8 r2, q0", {"q0": _lanes(8), "r2": ("reg", "word")},
          ("r2",), 8, esize=8)

    # --- predicates
    for cond in ("eq", "ne", "ge", "lt", "gt", "le"):
        dtype = "i32" if cond in ("eq", "ne") else "s32"        # EQ/NE have no signedness
        _both(c, f"vcmp.{dtype}.{cond}/r", f"vcmp.{dtype} {cond}, q0, r1",
              {"q0": _lanes(32), "r1": ("reg", "word")}, ("p0",), 32, cond=cond)
    _both(c, "vcmp.s32.gt", "vcmp.s32 gt, q0, q1", {"q0": _lanes(32), "q1": _lanes(32)},
          ("p0",), 32, cond="gt")
    for esize in (8, 16, 32):
        _both(c, f"vctp.{esize}", f"vctp.{esize} r1", {"r1": ("reg", ("count", 40))},
              ("p0",), esize, esize=esize)
    c.append(Case("vmsr+vmrs", "vmsr p0, r1\n    vmrs r2, p0", {"r1": ("reg", "word")},
                  ("p0", "r2"), PLAIN_SETS))

    # --- lane moves
    c.append(Case("vmov.32/d1[1]", "vmov.32 r2, d1[1]", {"q0": _lanes(32)}, ("r2",),
                  PLAIN_SETS, extra={"lane": 3}))
    c.append(Case("vmov.32/s2", "vmov r2, s2", {"q0": _lanes(32)}, ("r2",), PLAIN_SETS,
                  extra={"lane": 2}))
    for lane, lane2 in ((2, 0), (3, 1)):
        c.append(Case(f"vmov.rr/{lane},{lane2}", f"vmov q0[{lane}], q0[{lane2}], r1, r2",
                      {"q0": _lanes(32), "r1": ("reg", "word"), "r2": ("reg", "word")},
                      ("q0",), PLAIN_SETS, extra={"lane": lane, "lane2": lane2}))

    # --- scalar Armv8.1-M
    for imm in (1, 8, 31, 32):
        c.append(Case(f"asrl#{imm}", f"asrl r0, r1, #{imm}",
                      {"r0": ("reg", "word"), "r1": ("reg", "word")}, ("r0", "r1"),
                      PREDICATED_SETS, extra={"imm": imm}))
    c.append(Case("asrl/r", "asrl r0, r1, r2", {"r0": ("reg", "word"), "r1": ("reg", "word"),
                                               "r2": ("reg", "shift")}, ("r0", "r1"),
                  PREDICATED_SETS))
    for mnemonic, cond in (("cinc", "gt"), ("cinc", "lt"), ("cneg", "lt"), ("cneg", "mi")):
        c.append(Case(f"{mnemonic}.{cond}", f"{mnemonic} r2, r1, {cond}",
                      {"r1": ("reg", "word"), "flags": "flags"}, ("r2",), PLAIN_SETS,
                      extra={"cond": cond}))
    for cond in ("gt", "mi"):
        c.append(Case(f"csneg.{cond}", f"csneg r2, r0, r1, {cond}",
                      {"r0": ("reg", "word"), "r1": ("reg", "word"), "flags": "flags"},
                      ("r2",), PLAIN_SETS, extra={"cond": cond}))
    c.append(Case("csneg.gt/zr", "csneg r2, zr, r1, gt",
                  {"r1": ("reg", "word"), "flags": "flags"}, ("r2",), PLAIN_SETS,
                  extra={"cond": "gt"}))

    # --- low-overhead loops: iterations (R3) and what the tail-predicated body computed
    c.append(Case("dls+le", "movs r3, #0\n    dls lr, r1\n1:  adds r3, #1\n    le lr, 1b",
                  {"r1": ("reg", ("count", 20, 1))}, ("r3",), PLAIN_SETS))
    for esize, body in ((8, "vldrb.u8 q0, [r0], #16\n    vaddva.s8 r2, q0"),
                        (16, "vldrh.u16 q0, [r0], #16\n    vmlava.s16 r2, q0, q0"),
                        (32, "vldrw.u32 q0, [r0], #16\n    vmlava.s32 r2, q0, q0")):
        c.append(Case(f"wlstp.{esize}+letp",
                      f"mov r0, r6\n    movs r3, #0\n    wlstp.{esize} lr, r1, 2f\n"
                      f"1:  {body}\n    adds r3, #1\n    letp lr, 1b\n2:",
                      {"r1": ("reg", ("count", 256 // esize)), "r2": ("reg", "word"),
                       "mem": "mem"}, ("r2", "r3"), PREDICATED_SETS, extra={"esize": esize}))
    return c


CASES = build_cases()
