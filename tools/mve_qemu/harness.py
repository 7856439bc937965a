"""The operand-set loop a case runs on QEMU, and the layout of its state records.

A record is the machine state around one execution of the case's snippet::

    offset   0  Q0   16  Q1   32  Q2   48  Q3        (128-bit, little-endian words)
            64  R0 .. R5                              (6 words)
            88  VPR.P0 (VMSR P0 before, VMRS P0 after)
            92  FPSCR  (QC is bit 27; LTPSIZE bits 18:16 are kept at 4, no tail predication)
            96  APSR   (NZCVQ in bits 31:27)
           112  a 32-byte memory buffer (its address is in R6 while the snippet runs)

The loop copies each input record to the output array, loads the state from the copy,
runs the snippet (which may read and write the buffer in place), stores the state back over
the copy, and finally writes the output array to a host file through semihosting.
"""
import numpy as np

RECORD = 144
Q_OFFSET = {f"q{i}": 16 * i for i in range(4)}
R_OFFSET = {f"r{i}": 64 + 4 * i for i in range(6)}
P0_OFFSET, FPSCR_OFFSET, APSR_OFFSET, MEM_OFFSET = 88, 92, 96, 112
MEM_BYTES = 32
FPSCR_QC = 1 << 27
FPSCR_LTPSIZE_NONE = 4 << 16
APSR_FLAGS_SHIFT = 27           # N Z C V Q in bits 31..27

# bytes a field takes in the recorded data
FIELD_BYTES = {**{q: 16 for q in Q_OFFSET}, **{r: 4 for r in R_OFFSET},
               "p0": 2, "qc": 1, "flags": 1, "mem": MEM_BYTES}


def source(case, inputs_path, outputs_path, sets):
    """The assembly of `case`'s loop over `sets` records read from `inputs_path`."""
    copy = "\n".join(f"    vldrw.u32 q0, [r8, #{k}]\n    vstrw.32 q0, [r9, #{k}]"
                     for k in range(0, RECORD, 16))
    return f"""
    .syntax unified
    .thumb
    .text
    .thumb_func
    .global main
main:
    push {{r4-r11, lr}}
    ldr r8, =inputs
    ldr r9, =outputs
    ldr r10, ={sets}
next:
{copy}
    add.w r7, r9, #64
    ldm r7, {{r0-r5}}
    ldr r7, [r9, #{FPSCR_OFFSET}]
    vmsr fpscr, r7
    ldr r7, [r9, #{P0_OFFSET}]
    vmsr p0, r7
    vldrw.u32 q0, [r9]
    vldrw.u32 q1, [r9, #16]
    vldrw.u32 q2, [r9, #32]
    vldrw.u32 q3, [r9, #48]
    add.w r6, r9, #{MEM_OFFSET}
    ldr r7, [r9, #{APSR_OFFSET}]
    msr APSR_nzcvq, r7
    @ ---- {case.name}
    {case.asm}
    @ ----
    mrs r7, apsr
    str r7, [r9, #{APSR_OFFSET}]
    vmrs r7, p0
    str r7, [r9, #{P0_OFFSET}]
    vmrs r7, fpscr
    str r7, [r9, #{FPSCR_OFFSET}]
    vstrw.32 q0, [r9]
    vstrw.32 q1, [r9, #16]
    vstrw.32 q2, [r9, #32]
    vstrw.32 q3, [r9, #48]
    add.w r7, r9, #64
    stm r7, {{r0-r5}}
    add.w r8, r8, #{RECORD}
    add.w r9, r9, #{RECORD}
    subs r10, #1
    bne.w next
    ldr r0, =path
    ldr r1, =outputs
    ldr r2, ={sets * RECORD}
    bl semihost_write_file
    pop {{r4-r11, pc}}
    .ltorg

    .data
    .align 4
inputs:
    .incbin "{inputs_path}"
path:
    .asciz "{outputs_path}"
    .bss
    .align 4
outputs:
    .space {sets * RECORD}
"""


def records(fields, sets):
    """Input records (uint8 [sets, RECORD]) holding `fields` ({name: values} as drawn by
    operands.draw); every other register is zero and FPSCR keeps LTPSIZE = 4."""
    out = np.zeros((sets, RECORD), np.uint8)
    words = out.view("<u4")
    words[:, FPSCR_OFFSET // 4] = FPSCR_LTPSIZE_NONE
    for name, values in fields.items():
        if name in Q_OFFSET:
            words[:, Q_OFFSET[name] // 4:Q_OFFSET[name] // 4 + 4] = values
        elif name in R_OFFSET:
            words[:, R_OFFSET[name] // 4] = values
        elif name == "p0":
            words[:, P0_OFFSET // 4] = values
        elif name == "qc":
            words[:, FPSCR_OFFSET // 4] |= values.astype(np.uint32) * FPSCR_QC
        elif name == "flags":
            words[:, APSR_OFFSET // 4] = values.astype(np.uint32) << APSR_FLAGS_SHIFT
        elif name == "mem":
            out[:, MEM_OFFSET:MEM_OFFSET + MEM_BYTES] = values
        else:
            raise ValueError(f"unknown field {name!r}")
    return out


def pack(record_array, names):
    """The bytes of fields `names` of each record, side by side (the stored form)."""
    words = record_array.view("<u4")
    parts = []
    for name in names:
        if name in Q_OFFSET:
            parts.append(record_array[:, Q_OFFSET[name]:Q_OFFSET[name] + 16])
        elif name in R_OFFSET:
            parts.append(record_array[:, R_OFFSET[name]:R_OFFSET[name] + 4])
        elif name == "p0":
            parts.append(record_array[:, P0_OFFSET:P0_OFFSET + 2])
        elif name == "qc":
            parts.append(((words[:, FPSCR_OFFSET // 4] >> 27) & 1).astype(np.uint8)[:, None])
        elif name == "flags":
            parts.append((words[:, APSR_OFFSET // 4] >> APSR_FLAGS_SHIFT).astype(np.uint8)[:, None])
        elif name == "mem":
            parts.append(record_array[:, MEM_OFFSET:MEM_OFFSET + MEM_BYTES])
        else:
            raise ValueError(f"unknown field {name!r}")
    return np.concatenate(parts, axis=1)
