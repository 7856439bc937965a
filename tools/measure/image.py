"""What the runner and the counters need from a linked image: segments, function symbols and
the disassembly of the code (function ranges only, so literal pools are never decoded)."""
import bisect
import subprocess
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
            mapping = []  # ARM mapping symbols: $t starts Thumb code, $d data (literal pools)
            for sym in elf.get_section_by_name(".symtab").iter_symbols():
                if sym.name in ("$t", "$d") or sym.name.startswith(("$t.", "$d.")):
                    mapping.append((sym["st_value"] & ~1, sym.name[1]))
                    continue
                kind = sym["st_info"]["type"]
                if kind in ("STT_FUNC", "STT_OBJECT", "STT_NOTYPE") and sym.name:
                    self.symbols.setdefault(sym.name, (sym["st_value"], sym["st_size"], kind))
                if kind == "STT_FUNC" and sym["st_size"] > 0:
                    start = sym["st_value"] & ~1
                    funcs.setdefault(start, Function(sym.name, start, start + sym["st_size"]))
        short = demangle(list(self.symbols))
        funcs = {a: Function(short.get(fn.name, fn.name), fn.start, fn.end) for a, fn in funcs.items()}
        for mangled, name in short.items():
            self.symbols.setdefault(name, self.symbols[mangled])
        self.functions = sorted(funcs.values(), key=lambda fn: fn.start)
        self.function_by_start = {fn.start: fn for fn in self.functions}
        self._starts = [fn.start for fn in self.functions]
        self._mapping = sorted(mapping)
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

    def code_ranges(self):
        """[start, end) of the Thumb code inside every function: the function's range cut at
        its `$d` mapping symbols (literal pools) and resumed at `$t`."""
        ranges = []
        for fn in self.functions:
            lo = bisect.bisect_left(self._mapping, (fn.start, ""))
            marks = [m for m in self._mapping[lo:] if m[0] < fn.end]
            kind = "t"
            if marks and marks[0][0] == fn.start:
                kind = marks[0][1]
            start = fn.start
            for addr, k in marks:
                if k == kind:
                    continue
                if kind == "t" and addr > start:
                    ranges.append((start, addr))
                kind, start = k, addr
            if kind == "t" and fn.end > start:
                ranges.append((start, fn.end))
        return ranges

    def instructions(self):
        """{address: capstone instruction} over the code ranges (linear sweep, so IT blocks
        are decoded in context)."""
        if self._insns is None:
            md = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
            md.detail = True
            insns = {}
            for start, end in self.code_ranges():
                for insn in md.disasm(self.read(start, end - start), start):
                    insns[insn.address] = insn
            self._insns = insns
        return self._insns

    def owner(self, addr):
        """The function whose range holds `addr` (None outside every function)."""
        i = bisect.bisect_right(self._starts, addr) - 1
        if i >= 0 and addr < self.functions[i].end:
            return self.functions[i]
        return None


def short_name(demangled):
    """`void ns::f<T>(args) const` -> `ns::f<T>`: the name as ../shared/models/measured.json
    spells functions (no return type, no parameter list; `(anonymous namespace)` -> `(anon)`)."""
    text = demangled.replace("(anonymous namespace)", "(anon)")
    depth, cut, space = 0, len(text), -1
    for i, ch in enumerate(text):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0 and not text.startswith("(anon)", i):
            cut = i
            break
        elif ch == " " and depth == 0:
            space = i
    return text[space + 1:cut] if space >= 0 else text[:cut]


def demangle(names):
    """{mangled C++ name: short demangled name} for the names that are mangled."""
    mangled = [n for n in names if n.startswith("_Z")]
    if not mangled:
        return {}
    out = subprocess.run(["arm-none-eabi-c++filt"], input="\n".join(mangled), text=True,
                         capture_output=True, check=True).stdout.splitlines()
    return {m: short_name(d) for m, d in zip(mangled, out)}
