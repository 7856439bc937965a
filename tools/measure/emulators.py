"""Run an image's counted call on an emulated core and record its execution as edge counts.

An edge (a, b) counts how often the instruction at b was reported right after the one at a.
Every measured field is a function of these edges and the disassembly (see ``counts.py``):
per-address execution counts, taken branches (a flow-changing a whose successor b is not the
next address), condition-failed IT instructions (the gap between a non-branch a and b, which
Unicorn does not report), the pairs the cycle model looks at, and call edges.
"""
from collections import defaultdict

from unicorn import (UC_ARCH_ARM, UC_HOOK_CODE, UC_MODE_MCLASS, UC_MODE_THUMB, Uc, UcError,
                     arm_const)

RAM_BASE = 0x20000000
RAM_SIZE = 32 << 20
FLASH_BASE = 0x0
FLASH_SIZE = 32 << 20
RETURN_MAGIC = 0x0FFFF000           # LR of every call the runner makes: a mapped, empty page
STEP_LIMIT = 200_000_000

CPU_MODELS = {
    "cortex-m3": arm_const.UC_CPU_ARM_CORTEX_M3,
    "cortex-m4": arm_const.UC_CPU_ARM_CORTEX_M4,
    "cortex-m7": arm_const.UC_CPU_ARM_CORTEX_M7,
    "cortex-m33": arm_const.UC_CPU_ARM_CORTEX_M33,
}


class EmulationError(RuntimeError):
    pass


class Run:
    """The outcome of one counted call: edges, the entry's return value, memory access and
    further (uncounted) calls into the same image."""

    def __init__(self, edges, status, uc, image):
        self.edges = edges
        self.status = status
        self._uc = uc
        self.image = image

    def read(self, addr, size):
        return bytes(self._uc.mem_read(addr, size))

    def call(self, name, *args):
        """Call `name` with integer arguments (r0..r3), uncounted; its signed int32 result."""
        for reg, value in zip((arm_const.UC_ARM_REG_R0, arm_const.UC_ARM_REG_R1,
                               arm_const.UC_ARM_REG_R2, arm_const.UC_ARM_REG_R3), args):
            self._uc.reg_write(reg, value & 0xFFFFFFFF)
        return _signed(_call(self._uc, self.image.address(name), name))


def _signed(v):
    return v - (1 << 32) if v & 0x80000000 else v


def _call(uc, addr, what):
    uc.reg_write(arm_const.UC_ARM_REG_LR, RETURN_MAGIC | 1)
    uc.reg_write(arm_const.UC_ARM_REG_SP, RAM_BASE + RAM_SIZE - 64)
    try:
        uc.emu_start(addr | 1, RETURN_MAGIC, count=STEP_LIMIT)
    except UcError as e:
        pc = uc.reg_read(arm_const.UC_ARM_REG_PC)
        raise EmulationError(f"{what}: {e} at pc=0x{pc:x}") from None
    pc = uc.reg_read(arm_const.UC_ARM_REG_PC)
    if pc != RETURN_MAGIC:
        raise EmulationError(f"{what}: stopped at pc=0x{pc:x} without returning "
                             f"(more than {STEP_LIMIT} instructions?)")
    return uc.reg_read(arm_const.UC_ARM_REG_R0)


def run_unicorn(image, cpu_model, setup="harness_setup", counted="harness_run"):
    """Load `image`, call `setup` uncounted, then `counted`, recording the edges of every
    instruction after `counted`'s own (so the edge from its call into the entry point and the
    entry point's final return are included, and `counted`'s own instructions are dropped by
    the counters).

    The code hook is installed before the set-up call and the translation cache is flushed
    after it: Unicorn only calls hooks from code translated after the hook was added, so a
    function the set-up ran would otherwise drop out of the count when the kernel calls it."""
    uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS)
    uc.ctl_set_cpu_model(CPU_MODELS[cpu_model])
    uc.mem_map(FLASH_BASE, FLASH_SIZE)
    uc.mem_map(RAM_BASE, RAM_SIZE)
    uc.mem_map(RETURN_MAGIC, 0x1000)
    for base, data, memsz in image.segments:
        if data:
            uc.mem_write(base, data)

    edges = defaultdict(int)
    state = {"on": False, "prev": 0}

    def hook(uc_, addr, size, _):
        if state["on"]:
            edges[(state["prev"], addr)] += 1
            state["prev"] = addr

    uc.hook_add(UC_HOOK_CODE, hook, None, image.code_start, image.code_end - 1)
    _call(uc, image.address(setup), setup)
    uc.ctl_flush_tb()
    state["on"] = True
    state["prev"] = 0
    status = _call(uc, image.address(counted), counted)
    state["on"] = False
    return Run(dict(edges), _signed(status), uc, image)


EMULATORS = {"unicorn": run_unicorn}
