"""Build bare-metal Thumb programs for QEMU's Cortex-M55 and run them.

The machine is QEMU's ``mps3-an547`` (Arm's AN547 FPGA image: a Cortex-M55 with MVE, the
integer and floating-point Helium extension); ``mps2-an386`` (a Cortex-M4) runs the DSP
build the same way, to check the instruction counting against ../shared/reference.  A
program is linked with `LINKER_SCRIPT` (code from 0x0, data and stack from 0x20000000,
512 KiB each: the AN547's ITCM and DTCM, within the AN386's SSRAMs) and the `STARTUP`
code below, which

* puts a vector table at address 0 (initial SP, reset handler, and a fault handler that
  ends the run with a failure status),
* enables the FPU/MVE coprocessors CP10 and CP11 in CPACR (MVE instructions fault before),
* calls ``main`` and ends the run through semihosting SYS_EXIT, with status 0 when
  ``main`` returned 0,
* offers ``semihost_write_file(path, buffer, length)`` to write results to a host file.

QEMU runs with ``-semihosting-config enable=on,target=native``, so a program's SYS_OPEN
opens host files; that is how results leave the simulated machine.
"""
import shutil
import subprocess
from pathlib import Path

from dataclasses import dataclass

GCC = "arm-none-eabi-gcc"
OBJDUMP = "arm-none-eabi-objdump"
QEMU = "qemu-system-arm"


@dataclass(frozen=True)
class Target:
    """A core QEMU emulates: its machine, gcc's flags for it, objdump's architecture."""
    name: str
    machine: str
    cpu_flags: tuple
    objdump_flags: tuple = ()


TARGETS = {
    # gcc defines __ARM_FEATURE_MVE (and so CMSIS-NN's ARM_MATH_MVEI) for -mcpu=cortex-m55
    # only with a hard or softfp float ABI; objdump decodes MVE only when told the
    # architecture (else it prints MVE encodings as coprocessor instructions).
    "cortex-m55": Target("cortex-m55", "mps3-an547", ("-mcpu=cortex-m55", "-mthumb",
                                                      "-mfloat-abi=hard"),
                         ("-m", "armv8.1-m.main")),
    # the DSP build of ../shared/reference (dsp_O2), to check the counting method against
    "cortex-m4": Target("cortex-m4", "mps2-an386", ("-mcpu=cortex-m4", "-mthumb",
                                                    "-mfloat-abi=soft")),
}
M55 = TARGETS["cortex-m55"]
MACHINE = M55.machine

LINKER_SCRIPT = """
MEMORY {
  ITCM (rx) : ORIGIN = 0x00000000, LENGTH = 512K
  DTCM (rw) : ORIGIN = 0x20000000, LENGTH = 512K
}
SECTIONS {
  .text : { KEEP(*(.vectors)) *(.text*) *(.rodata*) } > ITCM
  .data : { *(.data*) } > DTCM
  .bss (NOLOAD) : { __bss_start = .; *(.bss*) *(COMMON) __bss_end = .; } > DTCM
  __stack_top = ORIGIN(DTCM) + LENGTH(DTCM);
}
"""

STARTUP = r"""
    .syntax unified
    .thumb
    .section .vectors, "a"
    .word __stack_top
    .word reset
    .word fault                 @ NMI
    .word fault                 @ HardFault
    .word fault                 @ MemManage
    .word fault                 @ BusFault
    .word fault                 @ UsageFault

    .text
    .thumb_func
    .global reset
reset:
    ldr r0, =0xE000ED88         @ CPACR: full access to CP10, CP11 (FPU and MVE)
    ldr r1, [r0]
    orr r1, r1, #(0xF << 20)
    str r1, [r0]
    dsb
    isb
    ldr r0, =__bss_start        @ zero .bss
    ldr r1, =__bss_end
    movs r2, #0
1:  cmp r0, r1
    bhs 2f
    str r2, [r0], #4
    b 1b
2:  bl main
    cmp r0, #0
    ite eq
    ldreq r1, =0x20026          @ ADP_Stopped_ApplicationExit: QEMU exits with 0
    ldrne r1, =0x20024          @ ADP_Stopped_RunTimeErrorUnknown: QEMU exits with 1
    movs r0, #0x18              @ SYS_EXIT
    bkpt 0xab
    b .

    .thumb_func
fault:
    movs r0, #0x18
    ldr r1, =0x20024
    bkpt 0xab
    b .

    .thumb_func
    .global semihost_write_file
semihost_write_file:            @ (const char *path, const void *buffer, unsigned length)
    push {r4, r5, lr}
    sub sp, sp, #12
    mov r4, r1
    mov r5, r2
    str r0, [sp]                @ SYS_OPEN {path, mode "wb" = 5, strlen(path)}
    movs r1, #5
    str r1, [sp, #4]
    movs r1, #0
3:  ldrb r2, [r0, r1]
    cbz r2, 4f
    adds r1, #1
    b 3b
4:  str r1, [sp, #8]
    movs r0, #0x01
    mov r1, sp
    bkpt 0xab
    str r0, [sp]                @ SYS_WRITE {handle, buffer, length}
    str r4, [sp, #4]
    str r5, [sp, #8]
    movs r0, #0x05
    mov r1, sp
    bkpt 0xab
    mov r4, r0                  @ bytes not written
    movs r0, #0x02              @ SYS_CLOSE {handle}
    mov r1, sp
    bkpt 0xab
    mov r0, r4
    add sp, sp, #12
    pop {r4, r5, pc}
    .ltorg
"""


class QemuError(RuntimeError):
    pass


def require_tools():
    """The toolchain and QEMU, or one clear error naming what is missing."""
    missing = [tool for tool in (GCC, OBJDUMP, QEMU) if shutil.which(tool) is None]
    if missing:
        raise QemuError(f"not installed: {', '.join(missing)} (Debian: gcc-arm-none-eabi, "
                        f"qemu-system-arm)")


def versions():
    """The toolchain and QEMU versions (the first line each prints)."""
    out = {}
    for tool in (GCC, QEMU):
        first = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
        out[tool] = first.splitlines()[0].strip()
    return out


def build(workdir, sources, extra_flags=(), name="program", target=M55, objects=()):
    """Compile and link `sources` ({file name: text}; .S assembly or .c) and `objects`
    (paths of further .c/.o files) with the startup code into ``workdir/<name>.elf`` for
    `target`; returns its path."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "startup.S").write_text(STARTUP)
    (workdir / "link.ld").write_text(LINKER_SCRIPT)
    files = [workdir / "startup.S"]
    for file_name, text in sources.items():
        path = workdir / file_name
        path.write_text(text)
        files.append(path)
    elf = workdir / f"{name}.elf"
    command = [GCC, *target.cpu_flags, *extra_flags, "-nostartfiles", "-T",
               str(workdir / "link.ld"), *map(str, files), *map(str, objects), "-o", str(elf)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        raise QemuError(f"{GCC} failed:\n{result.stderr}")
    return elf


def command(elf, *extra, target=M55):
    """The qemu-system-arm command line that runs `elf` to its SYS_EXIT."""
    return [QEMU, "-M", target.machine, "-nographic", "-monitor", "none", "-serial", "none",
            "-semihosting-config", "enable=on,target=native", "-kernel", str(elf), *extra]


def run(elf, timeout=120, cwd=None, target=M55):
    """Run `elf` on QEMU's `target` core; QemuError unless it ends with status 0."""
    result = subprocess.run(command(elf, target=target), capture_output=True, text=True,
                            timeout=timeout, cwd=cwd)
    if result.returncode:
        raise QemuError(f"{elf.name} ended with status {result.returncode} on QEMU "
                        f"(a fault, or main returned non-zero)\n{result.stderr}")
    return result.stdout
