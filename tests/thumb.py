"""Run Thumb-2 instructions on unicorn's Cortex-M4 and compare them with an armsim model.

The independent execution behind the semantics tests: an instruction (assembled by
keystone, or encoded here where keystone 0.9.2 rejects it) is placed in a small Thumb
loop that, for every operand set, loads r0-r5 and APSR from memory, executes the
instruction, and stores r4, r5 and APSR back::

    loop: LDM.W   r8!, {r0-r5, r7}     @ operands, initial Rd/RdHi, initial APSR
          MSR     APSR_nzcvqg, r7      @ clears (or sets) Q and GE before each run
          <instruction(s) under test>   @ destination r4 (and r5), sources r0-r3
          MRS     r7, APSR
          STM.W   r9!, {r4, r5, r7}
          SUBS.W  r10, r10, #1
          BNE.W   loop

so thousands of operand sets cost one `emu_start` (unicorn translates the loop once).
`compare` runs the same operand sets through a Python model built on `armsim.cpu.isa` and
returns the mismatching rows, which the tests print.
"""
from collections import namedtuple

import numpy as np
from keystone import KS_ARCH_ARM, KS_MODE_THUMB, Ks
from unicorn import UC_ARCH_ARM, UC_MODE_MCLASS, UC_MODE_THUMB, Uc
from unicorn.arm_const import UC_ARM_REG_R8, UC_ARM_REG_R9, UC_ARM_REG_R10, UC_CPU_ARM_CORTEX_M4

CODE_BASE = 0x0800_0000
DATA_BASE = 0x2000_0000          # memory the instructions under test may load/store
DATA_SIZE = 0x1_0000
IO_BASE = 0x2010_0000            # operand and result arrays of the loop
IO_SIZE = 0x40_0000
IN_WORDS = 7                     # r0, r1, r2, r3, r4, r5, APSR
OUT_WORDS = 3                    # r4, r5, APSR

APSR_Q = 1 << 27
APSR_GE_SHIFT = 16
APSR_FLAGS = 0xF80F_0000         # N Z C V Q and GE<3:0>: what MRS APSR returns

_ks = Ks(KS_ARCH_ARM, KS_MODE_THUMB)


def asm(text):
    """Thumb-2 machine code of `text` (';'-separated statements) assembled by keystone."""
    encoding, _ = _ks.asm(text, CODE_BASE)
    if not encoding:
        raise ValueError(f"keystone produced no code for {text!r}")
    return bytes(encoding)


# --- hand encodings (ARM DDI 0403E, A7.7) for forms keystone 0.9.2 rejects ---------------

def t32(hw1, hw2):
    """A 32-bit Thumb instruction: two little-endian halfwords, first halfword first."""
    return hw1.to_bytes(2, "little") + hw2.to_bytes(2, "little")


_EXTEND_OP1 = {"sxtah": 0, "uxtah": 1, "sxtab16": 2, "uxtab16": 3, "sxtab": 4, "uxtab": 5}
_EXTEND_ALIAS = {"sxth": "sxtah", "uxth": "uxtah", "sxtb16": "sxtab16", "uxtb16": "uxtab16",
                 "sxtb": "sxtab", "uxtb": "uxtab"}


def extend(mnemonic, rd, rn, rm, rotation):
    """SXTAB/SXTAH/SXTAB16/UXTAB16 (encoding T1) and their Rn=PC forms SXTB/SXTH/SXTB16/
    UXTB16/UXTB/UXTH (encoding T2): 11111010 0 op1 Rn | 1111 Rd 1 0 rotate Rm."""
    if mnemonic in _EXTEND_ALIAS:
        mnemonic, rn = _EXTEND_ALIAS[mnemonic], 15
    if rotation not in (0, 8, 16, 24):
        raise ValueError(f"rotation {rotation} is not 0, 8, 16 or 24")
    return t32(0xFA00 | _EXTEND_OP1[mnemonic] << 4 | rn,
               0xF080 | rd << 8 | (rotation // 8) << 4 | rm)


def pkh(tb, rd, rn, rm, shift):
    """PKHBT Rd, Rn, Rm, LSL #shift (tb=0, shift 0..31) or PKHTB ..., ASR #shift (tb=1,
    shift 1..32, 32 encoded as 0): 1110101 0110 0 Rn | 0 imm3 Rd imm2 tb 0 Rm."""
    if not (1 <= shift <= 32 if tb else 0 <= shift <= 31):
        raise ValueError(f"PKH{'TB' if tb else 'BT'} shift {shift} out of range")
    imm5 = shift & 31
    return t32(0xEAC0 | rn, (imm5 >> 2) << 12 | rd << 8 | (imm5 & 3) << 6 | tb << 5 | rm)


def bne_w(at, target):
    """BNE.W target (encoding T3) placed at address `at`."""
    offset = target - (at + 4)
    if offset % 2 or not -(1 << 20) <= offset < (1 << 20):
        raise ValueError("branch target out of range")
    s, j2, j1 = (offset >> 20) & 1, (offset >> 19) & 1, (offset >> 18) & 1
    return t32(0xF000 | s << 10 | 0x1 << 6 | (offset >> 12) & 0x3F,
               0x8000 | j1 << 13 | j2 << 11 | (offset >> 1) & 0x7FF)


# --- the loop ------------------------------------------------------------------------------

_PROLOGUE = asm("ldm.w r8!, {r0-r5, r7}; msr APSR_nzcvqg, r7")
_EPILOGUE = asm("mrs r7, apsr; stm.w r9!, {r4, r5, r7}; subs.w r10, r10, #1")


class Thumb:
    """One unicorn Cortex-M4 reused for every run (creating a Uc costs milliseconds)."""

    def __init__(self):
        uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS)
        uc.ctl_set_cpu_model(UC_CPU_ARM_CORTEX_M4)
        uc.mem_map(CODE_BASE, 0x1_0000)
        uc.mem_map(DATA_BASE, DATA_SIZE)
        uc.mem_map(IO_BASE, IO_SIZE)
        self.uc = uc

    def run(self, body, inputs, data=None):
        """Execute `body` (machine code) once per row of `inputs` (uint32 [n, 7]: r0-r5,
        APSR); returns uint32 [n, 3]: r4, r5, APSR after it.  `data` (bytes) is written
        at DATA_BASE first, for loads and stores."""
        inputs = np.ascontiguousarray(inputs, dtype=np.uint32)
        n = inputs.shape[0]
        if inputs.shape[1] != IN_WORDS or n == 0:
            raise ValueError("inputs must be a non-empty [n, 7] array")
        out_base = IO_BASE + inputs.nbytes
        if out_base + n * OUT_WORDS * 4 > IO_BASE + IO_SIZE:
            raise ValueError("too many operand sets for one run")
        code = _PROLOGUE + body + _EPILOGUE
        code += bne_w(CODE_BASE + len(code), CODE_BASE)
        end = CODE_BASE + len(code)
        uc = self.uc
        uc.mem_write(CODE_BASE, code + asm("nop"))
        uc.mem_write(IO_BASE, inputs.tobytes())
        if data is not None:
            uc.mem_write(DATA_BASE, bytes(data))
        uc.reg_write(UC_ARM_REG_R8, IO_BASE)
        uc.reg_write(UC_ARM_REG_R9, out_base)
        uc.reg_write(UC_ARM_REG_R10, n)
        uc.emu_start(CODE_BASE | 1, end)
        if uc.reg_read(UC_ARM_REG_R10) != 0 or uc.reg_read(UC_ARM_REG_R9) != out_base + 12 * n:
            raise RuntimeError("the unicorn loop did not run every operand set")
        raw = uc.mem_read(out_base, n * OUT_WORDS * 4)
        return np.frombuffer(bytes(raw), dtype=np.uint32).reshape(n, OUT_WORDS)

    def read_data(self, size):
        """Bytes at DATA_BASE after a run (what a store wrote)."""
        return bytes(self.uc.mem_read(DATA_BASE, size))


class Mismatch(namedtuple("Mismatch", "inputs armsim unicorn")):
    """One differing operand set: the 7 input words, armsim's and unicorn's (r4, r5, APSR)."""

    def __str__(self):
        def words(values):
            return " ".join(f"{v:08x}" for v in values)
        return f"in {words(self.inputs)} | armsim {words(self.armsim)} | unicorn {words(self.unicorn)}"


def compare(thumb, body, model, inputs):
    """Run `inputs` through unicorn and through `model`; return the list of Mismatch.

    `model(r0, r1, r2, r3, r4, r5, apsr)` gets signed register values and returns the
    expected (r4, r5, apsr); r4/r5 compare modulo 2**32, APSR on its NZCVQ and GE bits.
    An r4/r5 outside the signed 32-bit range (armsim's register convention) is a mismatch
    too and is shown unmasked."""
    got = thumb.run(body, inputs).astype(np.int64)
    regs = np.asarray(inputs, dtype=np.uint32).view(np.int32).astype(np.int64).tolist()
    raw = np.array([model(*r) for r in regs], dtype=np.int64)
    expected = raw & 0xFFFFFFFF
    expected[:, 2] &= APSR_FLAGS
    got[:, 2] &= APSR_FLAGS
    out_of_range = ((raw[:, :2] < -2**31) | (raw[:, :2] >= 2**31)).any(axis=1)
    shown = np.where(out_of_range[:, None], raw, expected)
    return [Mismatch(tuple(int(v) for v in inputs[i]), tuple(int(v) for v in shown[i]),
                     tuple(int(v) for v in got[i]))
            for i in np.flatnonzero((expected != got).any(axis=1) | out_of_range)]
