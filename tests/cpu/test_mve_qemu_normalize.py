"""tools/mve_qemu/count.py's mapping from objdump's spelling to armsim's mnemonics.

The counting method itself needs QEMU (its README shows it reproducing ../shared/reference's
DSP counts exactly); the mapping is pure and is pinned here on the forms CMSIS-NN's
builds contain, so a change to it cannot silently move counts between mnemonics.
"""
import sys
from pathlib import Path

import pytest

from armsim.cpu.instructions import MNEMONIC_INDEX

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "mve_qemu"))
import count  # noqa: E402

CASES = [
    # (objdump mnemonic, operands, IT condition, inside a VPT block) -> armsim mnemonic
    (("adds", "r0, #1"), "add"),
    (("adds.w", "r5, r1, #15"), "add"),
    (("addw", "r0, r0, #1234"), "add"),
    (("negs", "r3, r3"), "rsb"),
    (("lsls", "r0, r1, #2"), "lsl"),
    (("mls", "r0, r1, r2, r3"), "mls"),
    (("bne.n", "1c <f+0x1c>"), "bcc"),
    (("bls.w", "1c <f+0x1c>"), "bcc"),
    (("b.n", "1c <f+0x1c>"), "b"),
    (("bl", "0 <g>"), "bl"),
    (("itete", "ge"), "it"),
    (("movge", "r3, r8", "ge"), "mov"),
    (("strle.w", "r0, [r1]", "le"), "str"),
    (("movwgt", "r0, #0", "gt"), "movw"),
    (("movcc", "r0, r1", "cc"), "mov"),
    (("stmdb", "sp!, {r4, r5, lr}"), "push"),
    (("ldmia.w", "sp!, {r4, r5, pc}"), "pop"),
    (("ldmia", "r0!, {r1, r2}"), "ldm"),
    (("vldrb.u8", "q0, [r0], #16"), "vldrb.u8"),
    (("vldrbt.u8", "q0, [r0]", None, True), "vldrb.u8"),
    (("vldrb.u8", "q2, [r1, q3]"), "vldrb.u8.gather"),
    (("vstrbt.32", "q2, [r1, q3]", None, True), "vstrb.32.scatter"),
    (("vmovlt.s16", "q0, q1"), "vmovlt.s16"),
    (("vmovltt.s16", "q0, q1", None, True), "vmovlt.s16"),
    (("vmov", "q0, q1"), "vmov"),
    (("vmov", "r2, s4"), "vmov.32"),
    (("vmov.32", "r2, d1[1]"), "vmov.32"),
    (("vmov", "q2[2], q2[0], r2, r2"), "vmov.rr"),
    (("vldr", "d8, [pc, #24]"), "vldr"),
    (("vpst", ""), "vpst"),
    (("vpstt", ""), "vpst"),
    (("vmsr", "p0, r3"), "vmsr"),
    (("wlstp.8", "lr, r2, 40 <f+0x40>"), "wlstp.8"),
    (("letp", "lr, 20 <f+0x20>"), "letp"),
    (("cinc", "r0, r1, gt"), "cinc"),
    (("asrl", "r0, r1, #31"), "asrl"),
]


@pytest.mark.parametrize("disassembly,expected", CASES, ids=[" ".join(c[0][:2]) for c in CASES])
def test_objdump_spelling_maps_to_armsim_mnemonic(disassembly, expected):
    assert count.normalize(*disassembly) == expected
    assert expected in MNEMONIC_INDEX


def test_it_conditions_pass_as_the_manual_says():
    """ConditionPassed on the xPSR flags N Z C V (bits 31..28)."""
    n, z, c, v = 1 << 31, 1 << 30, 1 << 29, 1 << 28
    assert count.condition_passes("eq", z) and not count.condition_passes("ne", z)
    assert count.condition_passes("ge", n | v) and count.condition_passes("lt", n)
    assert count.condition_passes("gt", 0) and not count.condition_passes("gt", z)
    assert count.condition_passes("hi", c) and not count.condition_passes("hi", c | z)
    assert count.condition_passes("ls", z) and count.condition_passes("cc", 0)
    assert count.condition_passes("le", z) and not count.condition_passes("le", 0)
