"""`armsim explain`: what one instruction does, lane by lane, with a worked example.

For every instruction in `armsim.cpu.isa` this module holds the manual-style Operation text
(after ARM DDI 0403E, A7.7) and how its operands are laid out (its *kind*: byte lanes,
halfword lanes, a rotated byte extract, ...).  The semantics are not restated here: the
worked example's result is what `armsim.cpu.isa` computes; the diagram only shows where each
lane comes from and goes to, using the operand values.

`explain(name, a=None, b=None, acc=None, rot=None, shift=None, sat=None, ge=None,
carry=None, lsb=None, width=None)` returns the text; `instructions()` lists the names.
"""
import inspect

from armsim.cpu import isa
from armsim.cpu.instructions import CLASS_OF
from armsim.errors import ExplainError


# name -> (syntax, kind, Operation text, default example operands)
# kinds: word, long (64-bit result pair), dual (two halfword products), halfmul (one
# halfword product), extend (byte/halfword extract with rotation), pack, rev, bytes
# (four byte lanes), halves (two halfword lanes), sat (saturate a word), bitfield
# (extract or insert bits <lsb+width-1:lsb>).
_S = {}


def _spec(name, syntax, kind, operation, **example):
    _S[name] = (syntax, kind, operation.strip("\n"), example)


# --- data processing ---------------------------------------------------------------------
for _n, _sym in (("ADD", "+"), ("SUB", "-")):
    _spec(_n, f"{_n} <Rd>, <Rn>, <Rm>", "word",
          f"R[d] = (R[n] {_sym} R[m])<31:0>;     // modulo 2^32", a=0x7FFFFFF0, b=0x20)
_spec("RSB", "RSB <Rd>, <Rn>, <Rm>", "word", "R[d] = (R[m] - R[n])<31:0>;     // reverse subtract",
      a=5, b=0)
for _n, _sym in (("AND", "AND"), ("ORR", "OR"), ("EOR", "EOR")):
    _spec(_n, f"{_n} <Rd>, <Rn>, <Rm>", "word", f"R[d] = R[n] {_sym} R[m];",
          a=0x12345678, b=0x0F0F00FF)
_spec("ADC", "ADC <Rd>, <Rn>, <Rm>", "word",
      "(result, carry, overflow) = AddWithCarry(R[n], R[m], APSR.C);\n"
      "R[d] = result;     // R[n] + R[m] + C, modulo 2^32; flags unchanged (no S)\n"
      "// ADDS lo; ADC hi adds two 64-bit values: C is the carry out of the low words",
      a=0x00000001, b=0x00000002, carry=1)
_spec("SBC", "SBC <Rd>, <Rn>, <Rm>", "word",
      "(result, carry, overflow) = AddWithCarry(R[n], NOT(R[m]), APSR.C);\n"
      "R[d] = result;     // R[n] - R[m] - NOT(C), modulo 2^32; flags unchanged (no S)\n"
      "// SUBS lo; SBC hi subtracts 64-bit values: C = 0 is a borrow from the low words",
      a=0x00000005, b=0x00000002, carry=0)
_spec("BIC", "BIC <Rd>, <Rn>, <Rm>", "word", "R[d] = R[n] AND NOT(R[m]);", a=0x12345678,
      b=0x0F0F00FF)
_spec("MVN", "MVN <Rd>, <Rm>", "word", "R[d] = NOT(R[m]);", a=0x000000FF)
_spec("MOV", "MOV <Rd>, <Rm>", "word", "R[d] = R[m];", a=-7)
_spec("CLZ", "CLZ <Rd>, <Rm>", "word",
      "R[d] = CountLeadingZeroBits(R[m]);     // 32 when R[m] == 0", a=0x00012345)

# --- shifts ------------------------------------------------------------------------------
for _n, _text in (("LSL", "LSL(R[m], shift_n)           // 0 when shift_n >= 32"),
                  ("LSR", "LSR(R[m], shift_n)           // zeros in from the top; 0 when >= 32"),
                  ("ASR", "ASR(R[m], shift_n)           // copies of bit 31 in from the top"),
                  ("ROR", "ROR(R[m], shift_n MOD 32)    // bits out at the bottom come back at the top")):
    _spec(_n, f"{_n} <Rd>, <Rm>, <Rs>", "word",
          f"shift_n = UInt(R[s]<7:0>);\nR[d] = {_text};", a=-0x1230, b=4)

# --- bit fields --------------------------------------------------------------------------
for _n, _ext in (("UBFX", "ZeroExtend"), ("SBFX", "SignExtend")):
    _spec(_n, f"{_n} <Rd>, <Rn>, #<lsb>, #<width>", "bitfield",
          "msbit = lsbit + widthminus1;     // lsb 0..31, width 1..32-lsb\n"
          f"R[d] = {_ext}(R[n]<msbit:lsbit>, 32);",
          a=0x1234F678 if _n == "SBFX" else 0x12345678, lsb=8, width=8 if _n == "SBFX" else 12)
_spec("BFI", "BFI <Rd>, <Rn>, #<lsb>, #<width>", "bitfield",
      "msbit = lsbit + width - 1;     // lsb 0..31, width 1..32-lsb\n"
      "R[d]<msbit:lsbit> = R[n]<(msbit-lsbit):0>;\n"
      "// the other bits of R[d] are unchanged",
      a=0x00000ABC, acc=0x12345678, lsb=4, width=8)

# --- multiplies --------------------------------------------------------------------------
_spec("MUL", "MUL <Rd>, <Rn>, <Rm>", "word",
      "R[d] = (SInt(R[n]) * SInt(R[m]))<31:0>;     // low word: signed and unsigned agree",
      a=100000, b=-30000)
_spec("MLA", "MLA <Rd>, <Rn>, <Rm>, <Ra>", "word",
      "R[d] = (SInt(R[n]) * SInt(R[m]) + SInt(R[a]))<31:0>;", a=-3, b=7, acc=100)
_spec("MLS", "MLS <Rd>, <Rn>, <Rm>, <Ra>", "word",
      "R[d] = (SInt(R[a]) - SInt(R[n]) * SInt(R[m]))<31:0>;", a=-3, b=7, acc=100)
_spec("SMULL", "SMULL <RdLo>, <RdHi>, <Rn>, <Rm>", "long",
      "result = SInt(R[n]) * SInt(R[m]);     // 64-bit\nR[dHi] = result<63:32>;\nR[dLo] = result<31:0>;",
      a=0x40000000, b=-6)
_spec("UMULL", "UMULL <RdLo>, <RdHi>, <Rn>, <Rm>", "long",
      "result = UInt(R[n]) * UInt(R[m]);     // 64-bit\nR[dHi] = result<63:32>;\nR[dLo] = result<31:0>;",
      a=-1, b=16)
_spec("SMLAL", "SMLAL <RdLo>, <RdHi>, <Rn>, <Rm>", "long",
      "result = SInt(R[n]) * SInt(R[m]) + SInt(R[dHi]:R[dLo]);     // modulo 2^64\n"
      "R[dHi] = result<63:32>;\nR[dLo] = result<31:0>;",
      a=1 << 20, b=1518500250, acc=1 << 30)
_spec("UMLAL", "UMLAL <RdLo>, <RdHi>, <Rn>, <Rm>", "long",
      "result = UInt(R[n]) * UInt(R[m]) + UInt(R[dHi]:R[dLo]);     // modulo 2^64\n"
      "R[dHi] = result<63:32>;\nR[dLo] = result<31:0>;", a=-1, b=-1, acc=1)
_spec("SMMUL", "SMMUL <Rd>, <Rn>, <Rm>", "word",
      "result = SInt(R[n]) * SInt(R[m]);\nR[d] = result<63:32>;     // the most significant word",
      a=0x40000000, b=0x12345678)
_spec("SMMULR", "SMMULR <Rd>, <Rn>, <Rm>", "word",
      "result = SInt(R[n]) * SInt(R[m]) + 0x80000000;     // round\nR[d] = result<63:32>;",
      a=0x40000000, b=0x12345679)
_spec("SMMLA", "SMMLA <Rd>, <Rn>, <Rm>, <Ra>", "word",
      "result = (SInt(R[a]) << 32) + SInt(R[n]) * SInt(R[m]);\nR[d] = result<63:32>;",
      a=0x40000000, b=0x12345678, acc=10)
for _x in "BT":
    for _y in "BT":
        _nh = "R[n]<15:0>" if _x == "B" else "R[n]<31:16>"
        _mh = "R[m]<15:0>" if _y == "B" else "R[m]<31:16>"
        _spec(f"SMUL{_x}{_y}", f"SMUL{_x}{_y} <Rd>, <Rn>, <Rm>", "halfmul",
              f"operand1 = SInt({_nh});     // {'bottom' if _x == 'B' else 'top'} half of Rn\n"
              f"operand2 = SInt({_mh});     // {'bottom' if _y == 'B' else 'top'} half of Rm\n"
              "R[d] = operand1 * operand2;     // cannot overflow",
              a=0x0005FFFD, b=0x7FFF0009)
        _spec(f"SMLA{_x}{_y}", f"SMLA{_x}{_y} <Rd>, <Rn>, <Rm>, <Ra>", "halfmul",
              f"operand1 = SInt({_nh});\noperand2 = SInt({_mh});\n"
              "result = operand1 * operand2 + SInt(R[a]);\nR[d] = result<31:0>;\n"
              "if result != SInt(result<31:0>) then APSR.Q = '1';",
              a=0x0005FFFD, b=0x7FFF0009, acc=1000)
        _spec(f"SMLAL{_x}{_y}", f"SMLAL{_x}{_y} <RdLo>, <RdHi>, <Rn>, <Rm>", "long",
              f"operand1 = SInt({_nh});\noperand2 = SInt({_mh});\n"
              "result = operand1 * operand2 + SInt(R[dHi]:R[dLo]);     // modulo 2^64\n"
              "R[dHi] = result<63:32>;\nR[dLo] = result<31:0>;",
              a=0x0005FFFD, b=0x7FFF0009, acc=1 << 31)
_DUAL = {
    "SMLAD": ("+", False, True, "R[a]"), "SMLADX": ("+", True, True, "R[a]"),
    "SMLSD": ("-", False, True, "R[a]"), "SMUAD": ("+", False, False, None),
    "SMUSD": ("-", False, False, None), "SMLALD": ("+", False, True, "R[dHi]:R[dLo]"),
}
for _n, (_sym, _x, _acc, _ra) in _DUAL.items():
    _m = "ROR(R[m], 16)" if _x else "R[m]"
    _text = (f"operand2 = {_m};{'     // halfwords of Rm exchanged' if _x else ''}\n"
             "product1 = SInt(R[n]<15:0>)  * SInt(operand2<15:0>);\n"
             "product2 = SInt(R[n]<31:16>) * SInt(operand2<31:16>);\n")
    if _n == "SMLALD":
        _text += ("result = product1 + product2 + SInt(R[dHi]:R[dLo]);     // modulo 2^64\n"
                  "R[dHi] = result<63:32>;  R[dLo] = result<31:0>;")
    else:
        _text += (f"result = product1 {_sym} product2{' + SInt(' + _ra + ')' if _acc else ''};\n"
                  "R[d] = result<31:0>;")
        if _n != "SMUSD":
            _text += "\nif result != SInt(result<31:0>) then APSR.Q = '1';"
    _args = "<RdLo>, <RdHi>, <Rn>, <Rm>" if _n == "SMLALD" else \
        "<Rd>, <Rn>, <Rm>" + (", <Ra>" if _acc else "")
    _spec(_n, f"{_n} {_args}", "dual", _text, a=0x0003FFFE, b=0x00050007,
          **({"acc": 100} if _acc else {}))

# --- extend and pack ---------------------------------------------------------------------
for _n in ("SXTB", "SXTH", "UXTB", "UXTH", "SXTAB", "SXTAH", "UXTAH", "SXTB16", "UXTB16", "SXTAB16",
           "UXTAB16"):
    _signed = _n[0] == "S"
    _ext = "SignExtend" if _signed else "ZeroExtend"
    _acc = _n[3] == "A"
    _rn = "<Rn>, " if _acc else ""
    if _n.endswith("16"):
        _text = ("rotated = ROR(R[m], rotation);     // rotation is 0, 8, 16 or 24\n"
                 f"R[d]<15:0>  = {'R[n]<15:0>  + ' if _acc else ''}{_ext}(rotated<7:0>, 16);\n"
                 f"R[d]<31:16> = {'R[n]<31:16> + ' if _acc else ''}{_ext}(rotated<23:16>, 16);")
    else:
        _bits = "7:0" if _n[-1] == "B" else "15:0"
        _text = ("rotated = ROR(R[m], rotation);     // rotation is 0, 8, 16 or 24\n"
                 f"R[d] = {'R[n] + ' if _acc else ''}{_ext}(rotated<{_bits}>, 32);")
    _spec(_n, f"{_n} <Rd>, {_rn}<Rm>{{, ROR #<rotation>}}", "extend", _text,
          a=(0x00640032 if _n.endswith("16") else 1000) if _acc else 0x80FF7F01, b=0x80FF7F01 if _acc else None, rot=8)
_spec("PKHBT", "PKHBT <Rd>, <Rn>, <Rm>{, LSL #<shift>}", "pack",
      "operand2 = LSL(R[m], shift);     // shift 0..31\n"
      "R[d]<15:0>  = R[n]<15:0>;\nR[d]<31:16> = operand2<31:16>;",
      a=0x1111AAAA, b=0x2222BBBB, shift=16)
_spec("PKHTB", "PKHTB <Rd>, <Rn>, <Rm>{, ASR #<shift>}", "pack",
      "operand2 = ASR(R[m], shift);     // shift 1..32; an encoded 0 means 32\n"
      "R[d]<15:0>  = operand2<15:0>;\nR[d]<31:16> = R[n]<31:16>;",
      a=0x1111AAAA, b=0x2222BBBB, shift=16)
_spec("REV", "REV <Rd>, <Rm>", "rev",
      "R[d]<31:24> = R[m]<7:0>;  R[d]<23:16> = R[m]<15:8>;\n"
      "R[d]<15:8>  = R[m]<23:16>; R[d]<7:0>  = R[m]<31:24>;", a=0x11223344)
_spec("REV16", "REV16 <Rd>, <Rm>", "rev",
      "R[d]<31:24> = R[m]<23:16>; R[d]<23:16> = R[m]<31:24>;\n"
      "R[d]<15:8>  = R[m]<7:0>;   R[d]<7:0>   = R[m]<15:8>;", a=0x11223344)

# --- saturating --------------------------------------------------------------------------
_spec("SSAT", "SSAT <Rd>, #<sat>, <Rn>{, LSL #<shift>}", "sat",
      "operand = LSL(R[n], shift);\n(result, sat) = SignedSatQ(SInt(operand), saturate_to);\n"
      "R[d] = SignExtend(result, 32);\nif sat then APSR.Q = '1';     // -2^(sat-1) <= R[d] <= 2^(sat-1)-1",
      a=300, sat=8, shift=0)
_spec("SSAT_ASR", "SSAT <Rd>, #<sat>, <Rn>, ASR #<shift>", "sat",
      "operand = ASR(R[n], shift);     // shift 1..31\n"
      "(result, sat) = SignedSatQ(SInt(operand), saturate_to);\n"
      "R[d] = SignExtend(result, 32);\nif sat then APSR.Q = '1';", a=-5000, sat=8, shift=4)
_spec("USAT", "USAT <Rd>, #<sat>, <Rn>{, LSL #<shift>}", "sat",
      "operand = LSL(R[n], shift);\n(result, sat) = UnsignedSatQ(SInt(operand), saturate_to);\n"
      "R[d] = ZeroExtend(result, 32);\nif sat then APSR.Q = '1';     // 0 <= R[d] <= 2^sat - 1",
      a=-3, sat=8, shift=0)
_spec("USAT_ASR", "USAT <Rd>, #<sat>, <Rn>, ASR #<shift>", "sat",
      "operand = ASR(R[n], shift);     // shift 1..31\n"
      "(result, sat) = UnsignedSatQ(SInt(operand), saturate_to);\n"
      "R[d] = ZeroExtend(result, 32);\nif sat then APSR.Q = '1';", a=5000, sat=8, shift=2)
_spec("SSAT16", "SSAT16 <Rd>, #<sat>, <Rn>", "halves",
      "(result1, sat1) = SignedSatQ(SInt(R[n]<15:0>), saturate_to);\n"
      "(result2, sat2) = SignedSatQ(SInt(R[n]<31:16>), saturate_to);\n"
      "R[d]<15:0> = SignExtend(result1, 16);  R[d]<31:16> = SignExtend(result2, 16);\n"
      "if sat1 || sat2 then APSR.Q = '1';", a=0xFF000050, sat=8)
_spec("USAT16", "USAT16 <Rd>, #<sat>, <Rn>", "halves",
      "(result1, sat1) = UnsignedSatQ(SInt(R[n]<15:0>), saturate_to);\n"
      "(result2, sat2) = UnsignedSatQ(SInt(R[n]<31:16>), saturate_to);\n"
      "R[d]<15:0> = ZeroExtend(result1, 16);  R[d]<31:16> = ZeroExtend(result2, 16);\n"
      "if sat1 || sat2 then APSR.Q = '1';", a=0xFF000150, sat=8)
for _n, _expr in (("QADD", "SInt(R[m]) + SInt(R[n])"), ("QSUB", "SInt(R[m]) - SInt(R[n])")):
    _spec(_n, f"{_n} <Rd>, <Rm>, <Rn>", "sat",
          f"(R[d], sat) = SignedSatQ({_expr}, 32);\nif sat then APSR.Q = '1';",
          a=0x7FFFFF00, b=0x1000)
for _n, _sym in (("QDADD", "+"), ("QDSUB", "-")):
    _spec(_n, f"{_n} <Rd>, <Rm>, <Rn>", "sat",
          "(doubled, sat1) = SignedSatQ(2 * SInt(R[n]), 32);\n"
          f"(R[d], sat2) = SignedSatQ(SInt(R[m]) {_sym} doubled, 32);\n"
          "if sat1 || sat2 then APSR.Q = '1';", a=1000, b=0x50000000)
for _n, _sym in (("QADD16", "+"), ("QSUB16", "-")):
    _spec(_n, f"{_n} <Rd>, <Rn>, <Rm>", "halves",
          f"sum1 = SInt(R[n]<15:0>)  {_sym} SInt(R[m]<15:0>);\n"
          f"sum2 = SInt(R[n]<31:16>) {_sym} SInt(R[m]<31:16>);\n"
          "R[d]<15:0>  = SignedSat(sum1, 16);\nR[d]<31:16> = SignedSat(sum2, 16);     // Q unchanged",
          a=0x7FF00010, b=0x00200030)
for _n, _sym in (("QADD8", "+"), ("QSUB8", "-")):
    _spec(_n, f"{_n} <Rd>, <Rn>, <Rm>", "bytes",
          f"for i = 0 to 3:  sum_i = SInt(R[n]<8i+7:8i>) {_sym} SInt(R[m]<8i+7:8i>);\n"
          "                 R[d]<8i+7:8i> = SignedSat(sum_i, 8);     // Q and GE unchanged",
          a=0x7F80F001, b=0x10F00102)
for _n, _sign, _sym in (("SADD8", "SInt", "+"), ("SSUB8", "SInt", "-"),
                        ("UADD8", "UInt", "+"), ("USUB8", "UInt", "-")):
    _ge = ("sum_i >= 0" if _sign == "SInt" else
           ("sum_i >= 0x100     // carry out" if _sym == "+" else "sum_i >= 0     // no borrow"))
    _spec(_n, f"{_n} <Rd>, <Rn>, <Rm>", "bytes",
          f"for i = 0 to 3:  sum_i = {_sign}(R[n]<8i+7:8i>) {_sym} {_sign}(R[m]<8i+7:8i>);\n"
          f"                 R[d]<8i+7:8i> = sum_i<7:0>;\n                 APSR.GE<i> = {_ge};",
          a=0x7F80F001, b=0x10F00102)
for _n, _sym in (("SADD16", "+"), ("SSUB16", "-")):
    _spec(_n, f"{_n} <Rd>, <Rn>, <Rm>", "halves",
          f"sum1 = SInt(R[n]<15:0>)  {_sym} SInt(R[m]<15:0>);\n"
          f"sum2 = SInt(R[n]<31:16>) {_sym} SInt(R[m]<31:16>);\n"
          "R[d]<15:0> = sum1<15:0>;  R[d]<31:16> = sum2<15:0>;\n"
          "APSR.GE<1:0> = sum1 >= 0 ? '11' : '00';  APSR.GE<3:2> = sum2 >= 0 ? '11' : '00';",
          a=0x7FF00010, b=0x00200030)
_spec("SEL", "SEL <Rd>, <Rn>, <Rm>", "bytes",
      "for i = 0 to 3:  R[d]<8i+7:8i> = APSR.GE<i> == '1' ? R[n]<8i+7:8i> : R[m]<8i+7:8i>;",
      a=0x11223344, b=0xAABBCCDD, ge=0b0101)
_spec("SDIV", "SDIV <Rd>, <Rn>, <Rm>", "word",
      "if SInt(R[m]) == 0 then result = 0;     // CCR.DIV_0_TRP clear\n"
      "else result = RoundTowardsZero(SInt(R[n]) / SInt(R[m]));\nR[d] = result<31:0>;",
      a=-7, b=2)
_spec("UDIV", "UDIV <Rd>, <Rn>, <Rm>", "word",
      "if UInt(R[m]) == 0 then result = 0;\n"
      "else result = RoundTowardsZero(UInt(R[n]) / UInt(R[m]));\nR[d] = result<31:0>;",
      a=-7, b=2)


# --- the instruction table ---------------------------------------------------------------

def _isa_functions():
    return {name: fn for name, fn in vars(isa).items()
            if name[:1].isupper() and hasattr(fn, "py_func")}


def instructions():
    """Every instruction `armsim.cpu.isa` implements, in its source order."""
    return list(_isa_functions())


def _mnemonic(name):
    return name.split("_")[0].lower()


def lookup(name):
    key = name.strip().upper().replace("-", "_").replace(".", "_")
    fns = _isa_functions()
    if key not in fns:
        near = [n for n in fns if n.startswith(key[:3])]
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        raise ExplainError(f"unknown instruction {name!r}{hint}; `armsim explain --list` "
                           f"shows the {len(fns)} instructions armsim implements")
    if key not in _S:
        raise ExplainError(f"{key} is implemented in armsim.cpu.isa but has no explanation yet")
    return key, fns[key]


# --- values ------------------------------------------------------------------------------

def parse_value(text):
    """A register value from hex (0x...), binary (0b...) or decimal text, signed or not."""
    try:
        return int(str(text).replace("_", ""), 0)
    except ValueError:
        raise ExplainError(f"not a number: {text!r} (use decimal like -5 or hex like 0xFF80)") \
            from None


def hex32(x):
    return f"0x{isa.u32(x):08X}"


def _lanes8(x):
    return [(isa.u32(x) >> (8 * i)) & 0xFF for i in range(4)]


def _lanes16(x):
    return [isa.u32(x) & 0xFFFF, (isa.u32(x) >> 16) & 0xFFFF]


def _sx(v, bits):
    return ((v & ((1 << bits) - 1)) ^ (1 << (bits - 1))) - (1 << (bits - 1))


def reg_line(label, x, view="word"):
    """One register: hex, then its lanes (bytes or halfwords) high to low."""
    x = isa.s32(x)
    if view == "bytes":
        lanes = "  ".join(f"[{8 * i + 7}:{8 * i}] {b:02X} ({_sx(b, 8):4d})"
                          for i, b in reversed(list(enumerate(_lanes8(x)))))
        return f"{label:<10} {hex32(x)}   {lanes}"
    if view == "halves":
        lo, hi = _lanes16(x)
        return (f"{label:<10} {hex32(x)}   [31:16] {hi:04X} ({_sx(hi, 16):6d})   "
                f"[15:0] {lo:04X} ({_sx(lo, 16):6d})")
    return f"{label:<10} {hex32(x)}   = {x} signed, {isa.u32(x)} unsigned"


# --- diagrams ----------------------------------------------------------------------------

def _byte_boxes(label, x):
    cells = "|".join(f"  {b:02X}  " for b in reversed(_lanes8(x)))
    return f"{label:<10} |{cells}|"


_BYTE_RULER = f"{'':<12}" + "".join(f"{r:^6} " for r in ("31:24", "23:16", "15:8", "7:0"))


def _diagram_extend(name, ops, imm, res):
    rot = imm["rotation"]
    rm = ops[-1]
    rotated = isa.ror32(rm, rot)
    signed = name[0] == "S"
    acc = name[3] == "A"
    ext = "SignExtend" if signed else "ZeroExtend"
    lines = [_BYTE_RULER, _byte_boxes("Rm", rm), _byte_boxes(f"ROR #{rot}", rotated)]

    def src(lo, width):
        """Which bits of Rm land at bits [lo+width-1:lo] of the rotated value."""
        s = (lo + rot) % 32
        e = s + width - 1
        return f"Rm[{e}:{s}]" if e < 32 else f"Rm[{e - 32}:0]:Rm[31:{s}]"

    if name.endswith("16"):
        rn_lanes = _lanes16(ops[0]) if acc else None
        if acc:
            lines.insert(0, reg_line("Rn", ops[0], "halves"))
        for half, (lo, dst) in enumerate(((0, "[15:0] "), (16, "[31:16]"))):
            byte = (isa.u32(rotated) >> lo) & 0xFF
            val = _sx(byte, 8) if signed else byte
            add = f"Rn{dst} ({_sx(rn_lanes[half], 16)}) + " if acc else ""
            out = _lanes16(res)[half]
            lines.append(f"Rd{dst} = {add}{ext}(rotated[{lo + 7}:{lo}] = {src(lo, 8)} = "
                         f"0x{byte:02X} = {val}) -> 0x{out:04X} ({_sx(out, 16)})")
        lines.append(f"           bytes rotated[15:8] and rotated[31:24] ({src(8, 8)}, "
                     f"{src(24, 8)}) are not used")
    else:
        width = 8 if name[-1] == "B" else 16
        part = isa.u32(rotated) & ((1 << width) - 1)
        val = _sx(part, width) if signed else part
        add = f"Rn ({isa.s32(ops[0])}) + " if acc else ""
        lines.append(f"Rd = {add}{ext}(rotated[{width - 1}:0] = {src(0, width)} = "
                     f"0x{part:0{width // 4}X} = {val}) -> {isa.s32(res)}")
    return lines


def _diagram_dual(name, ops, imm, res):
    rn, rm = ops[0], ops[1]
    sym = "-" if name in ("SMLSD", "SMUSD") else "+"
    x = name.endswith("X")
    n_lo, n_hi = isa.s16(rn), isa.top16(rn)
    m_lo, m_hi = isa.s16(rm), isa.top16(rm)
    if x:
        m_lo, m_hi = m_hi, m_lo
    lines = [reg_line("Rn", rn, "halves"), reg_line("Rm", rm, "halves")]
    if x:
        lines.append(reg_line("ROR(Rm,16)", isa.ror32(rm, 16), "halves"))
    lines.append(f"product1 = Rn[15:0] x {'Rm[31:16]' if x else 'Rm[15:0]'}  = "
                 f"{n_lo} x {m_lo} = {n_lo * m_lo}")
    lines.append(f"product2 = Rn[31:16] x {'Rm[15:0]' if x else 'Rm[31:16]'} = "
                 f"{n_hi} x {m_hi} = {n_hi * m_hi}")
    if name == "SMLALD":
        acc = (isa.s32(ops[3]) << 32) + isa.u32(ops[2]) if len(ops) > 3 else 0
        lines.append(f"RdHi:RdLo = {acc} + product1 + product2")
    elif name in ("SMLAD", "SMLADX", "SMLSD"):
        lines.append(f"Rd = product1 {sym} product2 + Ra ({isa.s32(ops[2])})")
    else:
        lines.append(f"Rd = product1 {sym} product2")
    return lines


def _diagram_halfmul(name, ops, imm, res):
    x, y = name[-2], name[-1]
    rn, rm = ops[0], ops[1]
    a = isa.top16(rn) if x == "T" else isa.s16(rn)
    b = isa.top16(rm) if y == "T" else isa.s16(rm)
    lines = [reg_line("Rn", rn, "halves"), reg_line("Rm", rm, "halves"),
             f"operand1 = Rn{'[31:16]' if x == 'T' else '[15:0]'} = {a}     "
             f"({'T' if x == 'T' else 'B'}: {'top' if x == 'T' else 'bottom'} half)",
             f"operand2 = Rm{'[31:16]' if y == 'T' else '[15:0]'} = {b}",
             f"product  = {a} x {b} = {a * b}"]
    if name.startswith("SMLA"):
        lines.append(f"Rd = product + Ra ({isa.s32(ops[2])})")
    return lines


def _diagram_pack(name, ops, imm, res):
    rn, rm = ops
    shift = imm["shift"]
    lines = [reg_line("Rn", rn, "halves"), reg_line("Rm", rm, "halves")]
    if name == "PKHBT":
        shifted = isa.LSL(rm, shift)
        lines += [reg_line(f"Rm LSL #{shift}", shifted, "halves"),
                  f"Rd[15:0]  <- Rn[15:0]              = 0x{_lanes16(rn)[0]:04X}",
                  f"Rd[31:16] <- (Rm LSL #{shift})[31:16] = 0x{_lanes16(shifted)[1]:04X}"
                  + (f"   (that is Rm[{31 - shift}:{16 - shift}])" if 0 < shift <= 16 else "")]
    else:
        shifted = isa.ASR(rm, 32 if shift == 0 else shift)
        lines += [reg_line(f"Rm ASR #{shift or 32}", shifted, "halves"),
                  f"Rd[15:0]  <- (Rm ASR #{shift or 32})[15:0] = 0x{_lanes16(shifted)[0]:04X}"
                  + (f"   (that is Rm[{15 + shift}:{shift}])" if 0 < shift <= 16 else ""),
                  f"Rd[31:16] <- Rn[31:16]              = 0x{_lanes16(rn)[1]:04X}"]
    return lines


def _diagram_rev(name, ops, imm, res):
    return [_BYTE_RULER, _byte_boxes("Rm", ops[0]), _byte_boxes("Rd", res),
            "           bytes reversed " + ("in the whole word" if name == "REV"
                                            else "within each halfword")]


def _diagram_bytes(name, ops, imm, res, ge):
    rn, rm = ops
    lines = [reg_line("Rn", rn, "bytes"), reg_line("Rm", rm, "bytes")]
    unsigned = name[0] == "U"
    sym = "-" if "SUB" in name else "+"
    for i in reversed(range(4)):
        a, b = _lanes8(rn)[i], _lanes8(rm)[i]
        d = _lanes8(res)[i]
        if name == "SEL":
            lines.append(f"byte {i} [{8 * i + 7}:{8 * i}]: GE[{i}]={(imm['ge'] >> i) & 1} -> "
                         f"{'Rn' if (imm['ge'] >> i) & 1 else 'Rm'} 0x{d:02X}")
            continue
        av, bv = (a, b) if unsigned else (_sx(a, 8), _sx(b, 8))
        lines.append(f"byte {i} [{8 * i + 7}:{8 * i}]: {av} {sym} {bv} = "
                     f"{av + bv if sym == '+' else av - bv} -> 0x{d:02X} "
                     f"({d if unsigned else _sx(d, 8)})" +
                     (f"   GE[{i}]={(ge >> i) & 1}" if ge is not None else ""))
    return lines


def _diagram_halves(name, ops, imm, res, ge):
    lines = [reg_line("Rn", ops[0], "halves")]
    if len(ops) > 1:
        lines.append(reg_line("Rm", ops[1], "halves"))
    sym = "-" if "SUB" in name else "+"
    for i, (lo, hi) in reversed(list(enumerate(((0, 15), (16, 31))))):
        a = _sx(_lanes16(ops[0])[i], 16)
        d = _lanes16(res)[i]
        if len(ops) > 1:
            b = _sx(_lanes16(ops[1])[i], 16)
            what = f"{a} {sym} {b} = {a + b if sym == '+' else a - b}"
        else:
            what = f"saturate {a} to {imm['saturate_to']} bits"
        gebits = f"   GE[{2 * i + 1}:{2 * i}]={(ge >> (2 * i)) & 3:02b}" if ge is not None else ""
        lines.append(f"half [{hi}:{lo}]: {what} -> 0x{d:04X} "
                     f"({d if name == 'USAT16' else _sx(d, 16)}){gebits}")
    return lines


def _diagram_sat(name, ops, imm, res):
    lines = [reg_line("Rn" if "SAT" in name else "Rm", ops[0])]
    if "SAT" in name:
        n = imm["saturate_to"]
        lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if name[0] == "S" else (0, (1 << n) - 1)
        shift = imm.get("shift_left", imm.get("shift_right", 0))
        if shift:
            how = "LSL" if "shift_left" in imm else "ASR"
            fn = isa.LSL if how == "LSL" else isa.ASR
            lines.append(reg_line(f"{how} #{shift}", fn(ops[0], shift)))
        lines.append(f"range      [{lo}, {hi}]   ({n}-bit {'signed' if name[0] == 'S' else 'unsigned'})")
    else:
        lines.append(reg_line("Rn", ops[1]))
    return lines


def _diagram_word(name, ops, imm, res):
    labels = {1: ["Rm"], 2: ["Rn", "Rm"], 3: ["Rn", "Rm", "Ra"]}[len(ops)]
    if name in ("LSL", "LSR", "ASR", "ROR"):
        labels = ["Rm", "Rs"]
    lines = [reg_line(lab, v) for lab, v in zip(labels, ops)]
    if "carry" in imm:
        c = imm["carry"]
        if name == "ADC":
            lines.append(f"Rd = Rn + Rm + C = {isa.s32(ops[0])} + {isa.s32(ops[1])} + {c}")
        else:
            lines.append(f"Rd = Rn - Rm - NOT(C) = {isa.s32(ops[0])} - {isa.s32(ops[1])} "
                         f"- {1 - c}")
    return lines


def _bits(x):
    """The 32 bits of a register, bit 31 first, in groups of four."""
    b = f"{isa.u32(x):032b}"
    return " ".join(b[i:i + 4] for i in range(0, 32, 4))


def _marks(lsb, width):
    """'^' under bits <lsb+width-1:lsb> of a `_bits` line."""
    cols = [k + k // 4 for k in range(31 - (lsb + width - 1), 32 - lsb)]
    line = [" "] * 39
    for c in cols:
        line[c] = "^"
    return "".join(line).rstrip()


def _diagram_bitfield(name, ops, imm, res):
    lsb, width = imm["lsb"], imm["width"]
    msb = lsb + width - 1
    field = (isa.u32(ops[-1]) >> (0 if name == "BFI" else lsb)) & ((1 << width) - 1)
    pad = " " * 11
    if name == "BFI":
        rd_in, rn = ops
        return [reg_line("Rd (in)", rd_in), reg_line("Rn", rn),
                f"{'Rn':<10} {_bits(rn)}", f"{pad}{_marks(0, width)}   Rn[{width - 1}:0] = "
                f"0x{field:X}",
                f"{'Rd (in)':<10} {_bits(rd_in)}", f"{pad}{_marks(lsb, width)}   "
                f"Rd[{msb}:{lsb}] <- Rn[{width - 1}:0]; the other bits are kept",
                f"{'Rd':<10} {_bits(res)}"]
    ext = "SignExtend" if name == "SBFX" else "ZeroExtend"
    val = _sx(field, width) if name == "SBFX" else field
    return [reg_line("Rn", ops[0]), f"{'Rn':<10} {_bits(ops[0])}",
            f"{pad}{_marks(lsb, width)}   Rn[{msb}:{lsb}] = 0x{field:X}",
            f"Rd = {ext}(Rn[{msb}:{lsb}] = 0b{field:0{width}b}, 32) = {val}"]


def _diagram_long(name, ops, imm, res):
    if len(ops) == 4:
        rdlo, rdhi, rn, rm = ops
        acc = (isa.s32(rdhi) << 32) + isa.u32(rdlo)
        lines = [reg_line("Rn", rn), reg_line("Rm", rm),
                 f"{'RdHi:RdLo':<10} {hex32(rdhi)}:{hex32(rdlo)[2:]}   = {acc} (accumulator in)"]
    else:
        lines = [reg_line("Rn", ops[0]), reg_line("Rm", ops[1])]
    return lines


# --- the explanation ---------------------------------------------------------------------

_IMMEDIATES = {"rotation": "rot", "shift": "shift", "shift_left": "shift",
               "shift_right": "shift", "saturate_to": "sat", "ge": "ge", "carry": "carry",
               "lsb": "lsb", "width": "width"}


def operands(name):
    """The isa function's parameters: register, accumulator and immediate ones."""
    params = list(inspect.signature(_isa_functions()[name].py_func).parameters)
    regs = [p for p in params if p in ("rn", "rm", "shift_n")]
    accs = [p for p in params if p in ("ra", "rdlo", "rdhi", "rd")]
    imms = [p for p in params if p in _IMMEDIATES]
    return params, regs, accs, imms


def worked_example(name, a=None, b=None, acc=None, rot=None, shift=None, sat=None, ge=None,
                   carry=None, lsb=None, width=None):
    """Compute the example with armsim.cpu.isa: returns (operands by parameter, immediates,
    result value(s), q flag or None, ge bits or None)."""
    key, fn = lookup(name)
    syntax, kind, _, example = _S[key]
    params, regs, accs, imms = operands(key)
    given = {"a": a, "b": b, "acc": acc, "rot": rot, "shift": shift, "sat": sat, "ge": ge,
             "carry": carry, "lsb": lsb, "width": width}
    takes = {"a": len(regs) >= 1, "b": len(regs) >= 2, "acc": bool(accs)}
    takes.update({_IMMEDIATES[p]: True for p in imms})
    for opt, value in given.items():
        if value is not None and not takes.get(opt):
            raise ExplainError(f"{key} takes no --{opt} (syntax: {syntax})")
    vals = {}
    regvals = [given["a"], given["b"]]
    for i, p in enumerate(regs):
        v = regvals[i] if regvals[i] is not None else example.get("ab"[i], 0)
        vals[p] = isa.s32(parse_value(v) if isinstance(v, str) else v)
    accv = given["acc"] if given["acc"] is not None else example.get("acc", 0)
    accv = parse_value(accv) if isinstance(accv, str) else accv
    if "ra" in accs:
        vals["ra"] = isa.s32(accv)
    if "rd" in accs:                 # BFI: the destination's old value
        vals["rd"] = isa.s32(accv)
    if "rdlo" in accs:
        if not -(1 << 63) <= accv < (1 << 64):
            raise ExplainError(f"--acc {accv} does not fit RdHi:RdLo (64 bits)")
        vals["rdlo"], vals["rdhi"] = isa.s32(accv), isa.s32(accv >> 32)
    immvals = {}
    for p in imms:
        opt = _IMMEDIATES[p]
        v = given[opt] if given[opt] is not None else example.get(opt, 0)
        v = parse_value(v) if isinstance(v, str) else int(v)
        _check_immediate(key, p, v)
        immvals[p] = vals[p] = v
    if "width" in immvals and immvals.get("lsb", 0) + immvals["width"] > 32:
        raise ExplainError(f"{key}: lsb + width = {immvals.get('lsb', 0) + immvals['width']} "
                           "is more than 32")
    out = fn(*[vals[p] for p in params])
    q = gebits = None
    if isinstance(out, tuple):
        if isinstance(out[1], (bool,)) or type(out[1]).__name__ == "bool_":
            out, q = out[0], bool(out[1])
        elif kind != "long" and key != "SMLALD":
            out, gebits = out[0], int(out[1])
    return key, vals, immvals, out, q, gebits


def _check_immediate(key, p, v):
    ok = {"rotation": v in (0, 8, 16, 24), "ge": 0 <= v <= 15, "carry": v in (0, 1),
          "lsb": 0 <= v <= 31, "width": 1 <= v <= 32}
    if p == "saturate_to":
        ok[p] = (1 <= v <= 32) if key in ("SSAT", "SSAT_ASR") else \
            (1 <= v <= 16) if key == "SSAT16" else (0 <= v <= 15) if key == "USAT16" else 0 <= v <= 31
    if p in ("shift", "shift_left"):
        ok[p] = 0 <= v <= 31 if key != "PKHTB" else 0 <= v <= 32
    if p == "shift_right":
        ok[p] = 1 <= v <= 31
    if not ok.get(p, True):
        raise ExplainError(f"{key}: {p} = {v} is not encodable")
    if key == "PKHTB" and v == 32:
        return


def explain(name, a=None, b=None, acc=None, rot=None, shift=None, sat=None, ge=None,
            carry=None, lsb=None, width=None):
    """The full text of `armsim explain`."""
    key, vals, immvals, out, q, gebits = worked_example(name, a, b, acc, rot, shift, sat, ge,
                                                        carry, lsb, width)
    syntax, kind, operation, _ = _S[key]
    params, regs, accs, imms = operands(key)
    mn = _mnemonic(key)
    lines = [f"{syntax}", f"  class: {CLASS_OF[mn]}   (armsim.cpu.isa.{key})", "",
             "Operation", *("  " + ln for ln in operation.splitlines()), ""]
    ops_in = [vals[p] for p in params if p not in imms]
    if kind == "long" and "rdlo" in params:
        ops_in = [vals["rdlo"], vals["rdhi"], vals["rn"], vals["rm"]]
    if kind == "dual" and key == "SMLALD":
        ops_in = [vals["rn"], vals["rm"], vals["rdlo"], vals["rdhi"]]
    res = out[0] if isinstance(out, tuple) else out
    if kind in ("bytes", "halves"):
        diagram = globals()[f"_diagram_{kind}"](key, ops_in, immvals, res, gebits)
    else:
        diagram = globals()[f"_diagram_{kind}"](key, ops_in, immvals, res)
    imm_text = "  ".join(f"{p}={v}" for p, v in immvals.items())
    lines.append("Lanes" + (f"   ({imm_text})" if imm_text else ""))
    lines += ["  " + ln for ln in diagram]
    lines += ["", "Result (computed by armsim.cpu.isa)"]
    if kind == "long" or (kind == "dual" and key == "SMLALD"):
        lo, hi = out
        lines.append("  " + reg_line("RdLo", lo))
        lines.append("  " + reg_line("RdHi", hi))
        lines.append(f"  {'RdHi:RdLo':<10} {hex32(hi)}:{hex32(lo)[2:]}   = "
                     f"{(isa.s32(hi) << 32) + isa.u32(lo)} signed, "
                     f"{(isa.u32(hi) << 32) + isa.u32(lo)} unsigned")
    else:
        view = {"dual": "word", "halfmul": "word", "extend": "halves" if key.endswith("16") else "word",
                "pack": "halves", "rev": "bytes", "bytes": "bytes", "halves": "halves"}.get(kind, "word")
        lines.append("  " + reg_line("Rd", out, view))
    if q is not None:
        lines.append(f"  APSR.Q {'set (saturation/overflow)' if q else 'unchanged'}")
    if gebits is not None and key != "SEL":
        lines.append(f"  APSR.GE = {gebits:04b}  (GE[3]..GE[0])")
    return "\n".join(lines) + "\n"


def listing():
    """All instructions grouped by timing class."""
    by_class = {}
    for name in instructions():
        by_class.setdefault(CLASS_OF[_mnemonic(name)], []).append(name)
    return "\n".join(f"{cls:<7} {' '.join(names)}" for cls, names in by_class.items()) + "\n"


__all__ = ["explain", "instructions", "listing", "worked_example", "ExplainError",
           "parse_value", "reg_line", "hex32"]
