"""What the runner and the counters need from a linked image: segments, function symbols and
the disassembly of the code (function ranges only, so literal pools are never decoded)."""
import bisect
from dataclasses import dataclass

import capstone
from elftools.elf.elffile import ELFFile


@dataclass(frozen=True)
class Function:
    name: str
    start: int
    end: int


class Image:
    def __init__(self, path):
        self.path = str(path)
        with open(path, "rb") as f:
            elf = ELFFile(f)
            self.segments = [(seg["p_paddr"], seg.data(), seg["p_memsz"])
                             for seg in elf.iter_segments() if seg["p_type"] == "PT_LOAD"]
            self.symbols = {}
            funcs = {}
            for sym in elf.get_section_by_name(".symtab").iter_symbols():
                kind = sym["st_info"]["type"]
                if kind in ("STT_FUNC", "STT_OBJECT", "STT_NOTYPE") and sym.name:
                    self.symbols.setdefault(sym.name, (sym["st_value"], sym["st_size"], kind))
                if kind == "STT_FUNC" and sym["st_size"] > 0:
                    start = sym["st_value"] & ~1
                    funcs.setdefault(start, Function(sym.name, start, start + sym["st_size"]))
        self.functions = sorted(funcs.values(), key=lambda fn: fn.start)
        self.function_by_start = {fn.start: fn for fn in self.functions}
        self._starts = [fn.start for fn in self.functions]
        self.code_start = self.functions[0].start
        self.code_end = max(fn.end for fn in self.functions)
        self._insns = None

    def address(self, name):
        if name not in self.symbols:
            raise KeyError(f"{self.path}: no symbol {name}")
        return self.symbols[name][0] & ~1 if self.symbols[name][2] == "STT_FUNC" else self.symbols[name][0]

    def function(self, name):
        addr = self.address(name)
        return self.function_by_start[addr]

    def read(self, addr, size):
        for base, data, memsz in self.segments:
            if base <= addr and addr + size <= base + len(data):
                return data[addr - base:addr - base + size]
        raise KeyError(f"{self.path}: 0x{addr:x} is not initialised image data")

    def instructions(self):
        """{address: capstone instruction} over every function's range."""
        if self._insns is None:
            md = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
            md.detail = True
            insns = {}
            for fn in self.functions:
                code = self.read(fn.start, fn.end - fn.start)
                for insn in md.disasm(code, fn.start):
                    insns[insn.address] = insn
            self._insns = insns
        return self._insns

    def owner(self, addr):
        """The function whose range holds `addr` (None outside every function)."""
        i = bisect.bisect_right(self._starts, addr) - 1
        if i >= 0 and addr < self.functions[i].end:
            return self.functions[i]
        return None
