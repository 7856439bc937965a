"""`armsim explain`: every isa instruction is explained; the lane diagram names the right
source bits; the worked example is what armsim.cpu.isa computes, for default and user operands."""
import re

import pytest
from click.testing import CliRunner

from armsim.cpu import isa
from armsim.analysis import explain
from armsim.cli.main import main


def run(*args):
    result = CliRunner().invoke(main, ["explain", *args])
    return result.exit_code, result.output


def result_word(text):
    """The Rd value printed under 'Result'."""
    m = re.search(r"Result \(computed by armsim.cpu.isa\)\n  Rd\s+0x([0-9A-F]{8})", text)
    return int(m.group(1), 16)


def test_every_isa_instruction_is_explained():
    names = [n for n, f in vars(isa).items() if n[:1].isupper() and hasattr(f, "py_func")]
    assert explain.instructions() == names
    code, listing = run("--list")
    assert code == 0
    for name in names:
        assert re.search(rf"\b{name}\b", listing)
        text = explain.explain(name)
        assert "Operation" in text and "Lanes" in text and "Result (computed by armsim.cpu.isa)" in text


@pytest.mark.parametrize("name", explain.instructions())
def test_default_example_equals_isa(name):
    key, vals, imm, out, q, ge = explain.worked_example(name)
    params = explain.operands(key)[0]
    direct = getattr(isa, key)(*[vals[p] for p in params])
    text = explain.explain(name)
    if isinstance(direct, tuple) and len(direct) == 2 and not isinstance(direct[1], bool) \
            and ("rdlo" in params or key in ("SMULL", "UMULL")):
        lo, hi = direct
        assert f"RdHi:RdLo  0x{isa.u32(hi):08X}:{isa.u32(lo):08X}" in text
        return
    value = direct[0] if isinstance(direct, tuple) else direct
    assert result_word(text) == isa.u32(value)
    if isinstance(direct, tuple) and isinstance(direct[1], bool):
        assert ("APSR.Q set" in text) == direct[1]
    elif isinstance(direct, tuple) and key != "SEL":
        assert f"APSR.GE = {direct[1]:04b}" in text


@pytest.mark.parametrize("rot,low_src,high_src", [
    (0, "Rm[7:0]", "Rm[23:16]"), (8, "Rm[15:8]", "Rm[31:24]"),
    (16, "Rm[23:16]", "Rm[7:0]"), (24, "Rm[31:24]", "Rm[15:8]")])
def test_sxtab16_lanes_name_the_source_bytes(rot, low_src, high_src):
    rn, rm = 0x00640032, 0x80FF7F01
    code, text = run("sxtab16", "--a", hex(rn), "--b", hex(rm), "--rot", str(rot))
    assert code == 0
    lo_line = next(ln for ln in text.splitlines() if ln.strip().startswith("Rd[15:0]"))
    hi_line = next(ln for ln in text.splitlines() if ln.strip().startswith("Rd[31:16]"))
    assert f"rotated[7:0] = {low_src}" in lo_line
    assert f"rotated[23:16] = {high_src}" in hi_line
    # the byte values shown are those bytes of Rm, and the lanes add to Rn's halves
    def byte(src):
        hi, lo = map(int, re.match(r"Rm\[(\d+):(\d+)\]", src).groups())
        return (rm >> lo) & 0xFF
    assert f"= 0x{byte(low_src):02X} =" in lo_line and f"= 0x{byte(high_src):02X} =" in hi_line
    want = isa.SXTAB16(rn, rm, rot)
    assert result_word(text) == isa.u32(want)
    assert f"-> 0x{isa.u32(want) & 0xFFFF:04X}" in lo_line
    assert f"-> 0x{isa.u32(want) >> 16:04X}" in hi_line
    # rotated row of the byte diagram: the bytes of ROR(Rm, rot), high to low
    rot_row = next(ln for ln in text.splitlines() if ln.strip().startswith(f"ROR #{rot}"))
    rotated = isa.u32(isa.ror32(rm, rot))
    assert re.findall(r"\|\s+([0-9A-F]{2})\s+", rot_row) == \
        [f"{(rotated >> s) & 0xFF:02X}" for s in (24, 16, 8, 0)]


def test_smlad_products_and_user_operands():
    # decimal, negative and hex operands; products shown per halfword lane
    code, text = run("smlad", "--a", "0x7FFF8000", "--b", "-65535", "--acc", "-10")
    assert code == 0
    rn, rm = 0x7FFF8000, isa.s32(-65535)          # Rm = 0xFFFF0001: hi -1, lo 1
    assert "product1 = Rn[15:0] x Rm[15:0]  = -32768 x 1 = -32768" in text
    assert "product2 = Rn[31:16] x Rm[31:16] = 32767 x -1 = -32767" in text
    want, q = isa.SMLAD(rn, rm, -10)
    assert result_word(text) == isa.u32(want) and want == -32768 - 32767 - 10
    assert "APSR.Q unchanged" in text


def test_smladx_exchanges_halves():
    code, text = run("smladx", "--a", "0x00020003", "--b", "0x00050007", "--acc", "0")
    assert "product1 = Rn[15:0] x Rm[31:16]  = 3 x 5 = 15" in text
    assert "product2 = Rn[31:16] x Rm[15:0] = 2 x 7 = 14" in text
    assert result_word(text) == 29


def test_q_flag_and_overflow():
    code, text = run("smlad", "--a", "0x80008000", "--b", "0x80008000", "--acc", "0")
    assert code == 0 and "APSR.Q set" in text
    assert result_word(text) == 0x80000000


def test_pack_and_byte_lanes():
    code, text = run("pkhbt", "--a", "0x0000AAAA", "--b", "0x0000BBBB", "--shift", "16")
    assert "Rd[31:16] <- (Rm LSL #16)[31:16] = 0xBBBB   (that is Rm[15:0])" in text
    assert result_word(text) == 0xBBBBAAAA
    code, text = run("sadd8", "--a", "0x7F80F001", "--b", "0x10F00102")
    assert "byte 2 [23:16]: -128 + -16 = -144 -> 0x70 (112)   GE[2]=0" in text
    assert "APSR.GE = 1001" in text
    code, text = run("sel", "--a", "0x11223344", "--b", "0xAABBCCDD", "--ge", "0b0110")
    assert result_word(text) == 0xAA2233DD


def test_carry_and_bitfields():
    """ADC/SBC take APSR.C; UBFX/SBFX/BFI take lsb and width (BFI's Rd in is the --acc)."""
    assert result_word(explain.explain("ADC", a=-1, b=0, carry=1)) == 0
    assert result_word(explain.explain("SBC", a=0, b=0, carry=0)) == 0xFFFFFFFF
    text = explain.explain("SBFX", a=0x0000F000, lsb=12, width=4)
    assert "Rn[15:12] = 0xF" in text and "= -1" in text
    assert result_word(text) == isa.u32(isa.SBFX(0xF000, 12, 4)) == 0xFFFFFFFF
    assert result_word(explain.explain("UBFX", a=0x0000F000, lsb=12, width=4)) == 0xF
    text = explain.explain("BFI", a=0xABC, acc=0x12345678, lsb=4, width=8)
    assert "Rd[11:4] <- Rn[7:0]" in text
    assert result_word(text) == isa.u32(isa.BFI(0x12345678, 0xABC, 4, 8)) == 0x12345BC8
    with pytest.raises(explain.ExplainError, match="lsb \\+ width = 33"):
        explain.explain("UBFX", lsb=30, width=3)
    with pytest.raises(explain.ExplainError, match="carry = 2 is not encodable"):
        explain.explain("ADC", carry=2)
    with pytest.raises(explain.ExplainError, match="SMLAD takes no --lsb"):
        explain.explain("SMLAD", lsb=1)


def test_carry_and_bitfield_options_on_the_command_line():
    code, text = run("bfi", "--a", "0xABC", "--acc", "0x12345678", "--lsb", "4", "--width", "8")
    assert code == 0 and result_word(text) == 0x12345BC8
    code, text = run("sbc", "--a", "5", "--b", "3", "--carry", "1")
    assert code == 0 and result_word(text) == 2
    code, text = run("ubfx", "--lsb", "30", "--width", "3")
    assert code != 0 and "lsb + width = 33" in text and "Traceback" not in text


def test_long_accumulate_64_bit():
    code, text = run("smlal", "--a", "3", "--b", "-5", "--acc", "0x100000000")
    lo, hi = isa.SMLAL(0, 1, 3, -5)
    assert f"RdHi:RdLo  0x{isa.u32(hi):08X}:{isa.u32(lo):08X}   = {(1 << 32) - 15} signed" in text


def test_result_comes_from_isa(monkeypatch):
    """A broken semantics shows in the explanation: the example is computed, not stored."""
    def broken(rm, rotation):
        return 0x12345678
    broken.py_func = broken
    monkeypatch.setattr(isa, "SXTB16", broken)
    assert result_word(explain.explain("SXTB16")) == 0x12345678


@pytest.mark.parametrize("args,message", [
    (["vmla.f32"], "unknown instruction 'vmla.f32'"),
    (["smlax"], "did you mean SMLAL, SMLABB"),
    (["smlad", "--rot", "8"], "SMLAD takes no --rot"),
    (["sxtb16", "--rot", "4"], "rotation = 4 is not encodable"),
    (["smlad", "--a", "1.5"], "not a number"),
])
def test_errors(args, message):
    code, text = run(*args)
    assert code != 0
    assert message in text
    assert "Traceback" not in text
