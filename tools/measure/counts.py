"""The measured fields of ../shared/reference's schema, computed from a run's edge counts and
the image's disassembly (README "Fields beyond the common schema" and "Cycle model")."""
from collections import Counter, defaultdict

from capstone import arm

# Instruction classes of `class_histogram` (README table).
_CLASSES = {
    "alu": "mov movt mvn add adc sub sbc rsb cmp cmn tst teq and orr orn eor bic lsl lsr "
           "asr ror rrx sxtb sxth uxtb uxth sxtab sxtah uxtab uxtah rev rev16 revsh rbit clz "
           "ubfx sbfx bfi bfc nop adr",
    "mul": "mul mla mls smull umull smlal umlal smulbb smulbt smultb smultt smlabb smlabt smlatb "
           "smlatt smlalbb smlalbt smlaltb smlaltt smulwb smulwt smlawb smlawt smmul smmulr smmla "
           "smmlar smmls smmlsr umaal",
    "dspmac": "smlad smladx smlsd smlsdx smuad smuadx smusd smusdx smlald smlaldx smlsld smlsldx",
    "simd": "sxtb16 sxtab16 uxtb16 uxtab16 pkhbt pkhtb sadd16 ssub16 sadd8 ssub8 uadd8 usub8 "
            "uadd16 usub16 qadd16 qsub16 qadd8 qsub8 uqadd8 uqsub8 uqadd16 uqsub16 shadd16 "
            "shsub16 shadd8 shsub8 uhadd8 uhadd16 qasx qsax sasx ssax uasx usax sel usad8 usada8 "
            "ssat16 usat16",
    "sat": "ssat usat qadd qsub qdadd qdsub",
    "div": "sdiv udiv",
    "ld1": "ldr ldrh ldrsh ldrb ldrsb ldrt ldrex",
    "ldrd": "ldrd",
    "ldm": "ldm ldmdb pop",
    "st1": "str strh strb strex",
    "strd": "strd",
    "stm": "stm stmdb push",
    "br": "b bcc bl blx bx cbz cbnz tbb tbh",
    "it": "it",
}
CLASS_OF = {mn: cls for cls, names in _CLASSES.items() for mn in names.split()}

_COND = ("eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le",
         "cs", "cc")
_FLAG_COMPARES = {"cmp", "cmn", "tst", "teq"}
P_REFILL = 2
DIV_CYCLES = 7
LIBRARY_FUNCTIONS = {"memcpy", "memset", "memmove"}


class DecodeError(RuntimeError):
    pass


_WIDE = {"addw": "add", "subw": "sub", "movw": "mov"}


def mnemonic(insn):
    """Reference spelling: width suffix (`.w`/`.n`, and the `w` of addw/subw/movw),
    condition and flag-setting `s` dropped; `it`/`ite`/... is `it`; a conditional B is `bcc`."""
    name = insn.mnemonic.split(".")[0]
    if name.startswith("it") and name.strip("ite") == "":
        return "it"
    conditional = insn.cc not in (arm.ARM_CC_AL, arm.ARM_CC_INVALID)
    if conditional and name[-2:] in _COND and name[:-2]:
        name = name[:-2]
        if name == "b":
            return "bcc"
    if insn.update_flags and name.endswith("s") and name not in _FLAG_COMPARES \
            and name[:-1] in CLASS_OF:
        name = name[:-1]
    name = _WIDE.get(name, name)
    if name not in CLASS_OF:
        raise DecodeError(f"0x{insn.address:x}: {insn.mnemonic} {insn.op_str}: no class for {name!r}")
    return name


class Decoded:
    """Per-instruction facts the counters need, from capstone's detail."""
    __slots__ = ("addr", "size", "name", "cls", "writes_pc", "flow", "n_regs", "dest",
                 "addr_regs", "reg_offset", "is_call", "text")

    def __init__(self, insn):
        self.addr = insn.address
        self.size = insn.size
        self.name = mnemonic(insn)
        self.cls = CLASS_OF[self.name]
        self.text = f"{insn.mnemonic} {insn.op_str}"
        ops = insn.operands
        reg_ops = [op.reg for op in ops if op.type == arm.ARM_OP_REG]
        writes = set(insn.regs_access()[1])
        if self.cls in ("ldm", "stm"):
            # ldm/stm: first operand is the base unless push/pop
            regs = reg_ops if self.name in ("push", "pop") else reg_ops[1:]
            self.n_regs = len(regs)
            self.writes_pc = self.cls == "ldm" and arm.ARM_REG_PC in regs
        else:
            self.n_regs = 2 if self.cls in ("ldrd", "strd") else 1
            dest = reg_ops[0] if reg_ops else None
            self.writes_pc = (self.cls in ("ld1", "alu") and dest == arm.ARM_REG_PC
                              and self.name not in _FLAG_COMPARES)
        self.flow = self.cls == "br" or self.writes_pc
        self.is_call = self.name in ("bl", "blx")
        self.dest = set()
        if self.cls in ("ld1", "ldrd"):
            self.dest = {op.reg for op in ops if op.type == arm.ARM_OP_REG}
        self.addr_regs = set()
        self.reg_offset = False
        for op in ops:
            if op.type == arm.ARM_OP_MEM:
                if op.mem.base:
                    self.addr_regs.add(op.mem.base)
                if op.mem.index:
                    self.addr_regs.add(op.mem.index)
                    self.reg_offset = True


def _cost(d, prev):
    """TRM cycles of executed instruction `d` at P = 0 given the instruction before it."""
    cls = d.cls
    if cls == "ld1":
        if prev is not None and prev.cls == "ld1" and not (prev.dest & d.addr_regs):
            return 1
        return 2
    if cls == "st1":
        if not d.reg_offset:
            return 1
        if prev is not None and prev.cls == "ld1" and not (prev.dest & d.addr_regs):
            return 1
        return 2
    if cls in ("ldrd", "strd"):
        return 3
    if cls in ("ldm", "stm"):
        return 1 + d.n_regs
    if cls == "div":
        return DIV_CYCLES
    if d.name in ("tbb", "tbh"):
        return 2
    return 1


def measure_fields(run, entry):
    """Every measured field of one counted call (the schema's `measured.<build>` minus `build`)."""
    image = run.image
    insns = image.instructions()
    decoded = {}

    def dec(addr):
        d = decoded.get(addr)
        if d is None:
            if addr not in insns:
                raise DecodeError(f"0x{addr:x} executed but not decoded (outside every function?)")
            d = decoded[addr] = Decoded(insns[addr])
        return d

    # harness code (harness_run, a TFLM context callback, ...) is never counted
    runner = image.function("harness_run")

    def in_harness(a):
        f = image.owner(a)
        return f is not None and f.name.startswith("harness_")

    entered = {t for (s, t) in run.edges if runner.start <= s < runner.end and not in_harness(t)}
    entries = {image.owner(t).name for t in entered}
    if entry is None and len(entries) == 1:
        entry = entries.pop()
    if entry is None or entered != {image.function(entry).start}:
        raise DecodeError(f"the counted run entered {sorted(map(hex, entered))}, not {entry} only")

    executed = Counter()
    failed_it = Counter()
    taken = 0
    cycles = 0
    calls = Counter()

    for (s, t), n in run.edges.items():
        if in_harness(t):
            if in_harness(s) or s == 0:
                continue
            # a call of a harness callback, or the entry point's final return: taken
            src = dec(s)
            if not src.flow:
                raise DecodeError(f"return into the harness from a non-branch {src.text}")
            taken += n
            cycles += P_REFILL * n
            continue
        if s == 0:
            raise DecodeError("edge from nowhere")
        executed[t] += n
        dt = dec(t)
        if in_harness(s):
            cycles += _cost(dt, None) * n
            continue
        ds = dec(s)
        cycles += _cost(dt, ds) * n
        seq = s + ds.size
        if t != seq:
            if ds.flow:
                taken += n
                cycles += P_REFILL * n
            else:
                # IT-block instructions whose condition failed: the gap Unicorn left
                a = seq
                while a < t:
                    g = dec(a)
                    failed_it[a] += n
                    a += g.size
                if a != t:
                    raise DecodeError(f"gap 0x{seq:x}..0x{t:x} after {ds.text} is not whole instructions")
        # call edges: bl/blx, and branches into the first instruction of another function
        if t in image.function_by_start and (ds.is_call or ds.cls == "br") and not in_harness(t):
            caller = image.owner(s)
            callee = image.function_by_start[t]
            if ds.is_call or callee.name != caller.name:
                calls[f"{caller.name}->{callee.name}"] += n

    # check the failed-IT recovery: every gap instruction lies inside an IT block
    n_failed = sum(failed_it.values())
    cycles += n_failed

    mn = Counter()
    cl = Counter()
    functions = Counter()
    loads = stores = load_beats = store_beats = 0
    for addr, n in executed.items():
        d = dec(addr)
        mn[d.name] += n
        cl[d.cls] += n
        functions[image.owner(addr).name] += n
        if d.cls in ("ld1", "ldrd", "ldm"):
            loads += n
            load_beats += d.n_regs * n
        elif d.cls in ("st1", "strd", "stm"):
            stores += n
            store_beats += d.n_regs * n
    total = sum(executed.values())

    def ordered(c):
        return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

    return {
        "instructions": total,
        "instructions_incl_condition_failed_it": total + n_failed,
        "loads": loads,
        "stores": stores,
        "load_beats": load_beats,
        "store_beats": store_beats,
        "taken_branches": taken,
        "cycles_trm": cycles,
        "mnemonic_histogram": ordered(mn),
        "class_histogram": ordered(cl),
        "functions": ordered(functions),
        "kernel_chain": kernel_chain(entry, functions, calls),
        "calls": dict(calls),
    }


def kernel_chain(entry, functions, calls):
    """Entry point -> the callee that executes the most instructions (itself and everything it
    reaches) -> ..., skipping the C library (memcpy/memset/memmove) and `*_get_buffer_size`."""
    callees = defaultdict(list)
    for edge in calls:
        a, b = edge.split("->")
        if b not in callees[a]:
            callees[a].append(b)

    def reach(f):
        seen, todo = {f}, [f]
        while todo:
            for g in callees[todo.pop()]:
                if g not in seen:
                    seen.add(g)
                    todo.append(g)
        return seen

    chain = [entry]
    while True:
        options = [g for g in callees[chain[-1]]
                   if g not in LIBRARY_FUNCTIONS and not g.endswith("_get_buffer_size")
                   and g not in chain]
        if not options:
            return chain
        chain.append(max(options, key=lambda g: sum(functions.get(h, 0) for h in reach(g))))
