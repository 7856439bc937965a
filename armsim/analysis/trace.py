"""The teaching trace (`armsim trace`): a kernel run twice from the same source, traced
(every instruction recorded by `armsim.cpu.kernel.Tracer`) and counted (the numba run).

The trace shows each executed instruction with its operand and result registers (hex and
lanes), the C-level statement it comes from (the kernel line's trailing comment), the memory
the kernel wrote, and the instruction counts of both CMSIS-NN builds (`COMPARED`).  What it
traces: a tiny problem (`PROBLEMS`: one kernel, its arguments and memory), a case in the
CMSIS-NN vectors' schema, or one op of a model.
"""
import collections
import inspect
import json
import linecache
from pathlib import Path

import numpy as np

from armsim.analysis import explain as _explain
from armsim.cpu import isa, kernel as _kernel, machine
from armsim.cpu.instructions import CLASS_OF
from armsim.errors import CaseError, TraceError
from armsim.pipeline import harness, prepare, profiler
from armsim.pipeline.build import Build

#: the builds whose counts every trace shows side by side
COMPARED = (Build("simd"), Build("scalar"))

# --- problems -------------------------------------------------------------------------------

class Problem:
    """One path of a tiny problem: the kernel to run, its arguments and memory, and how to
    show what it produced."""

    def __init__(self, title, fn, args, memory, build, show, note=""):
        self.title, self.fn, self.args, self.memory = title, fn, args, memory
        self.build, self.show, self.note = build, show, note

    def execute(self, tracer=None):
        with harness.on_machine(self.build, self.memory) as m:
            ret = _kernel.run(self.fn, m, *self.args, tracer=tracer)
        return m, ret


def _kernel_fn(module, name=None):
    mod = __import__(f"armsim.kernels.cmsis_nn.{module}", fromlist=[name or module])
    return getattr(mod, name or module)


def _fmt_list(values, width=5):
    return " ".join(f"{int(v):>{width}}" for v in values)


def _int_list(text, what):
    try:
        values = [int(v, 0) for v in str(text).replace(" ", "").split(",") if v]
    except ValueError:
        raise TraceError(f"--{what}: expected comma-separated integers, got {text!r}") from None
    if not values:
        raise TraceError(f"--{what}: no values")
    return values


def _int8(values, what):
    bad = [v for v in values if not -128 <= v <= 127]
    if bad:
        raise TraceError(f"--{what}: {bad[0]} is not an int8 value (-128..127)")
    return np.array(values, np.int8)


def _widen_problem(build, values, offset):
    """arm_s8_to_s16_unordered_with_offset (simd) / arm_q7_to_q15_with_offset (scalar): the
    widening of int8 values to int16 + offset that arm_convolve_s8 does for its im2col."""
    src = _int8(values, "values")
    if not -32768 <= offset <= 32767:
        raise TraceError(f"--offset {offset} is not an int16")
    n = len(src)

    def placed(src_values):
        mem = harness.new_memory()
        a_src = mem.place("sram", src_values)
        a_dst = mem.place("sram", 2 * n)
        return mem, a_src, a_dst

    if build.dsp_extension:
        fn = _kernel_fn("arm_s8_to_s16_unordered_with_offset")
        title = "arm_s8_to_s16_unordered_with_offset (ARM_MATH_DSP)"
    else:
        fn = _kernel_fn("arm_q7_to_q15_with_offset")
        title = "arm_q7_to_q15_with_offset (plain C: what arm_convolve_s8 calls without ARM_MATH_DSP)"
    mem, a_src, a_dst = placed(src)

    def element_order():
        """Where each source element lands: run the same kernel (counted) on src = 1..n
        with offset 0 and read dst back."""
        probe_mem, p_src, p_dst = placed(np.arange(1, n + 1, dtype=np.int8))
        with harness.on_machine(build, probe_mem) as m:
            _kernel.run(fn, m, p_src, p_dst, n, 0)
        return [int(v) - 1 for v in machine.read(m, p_dst, n, np.int16)]

    def show(m, ret):
        dst = machine.read(m, a_dst, n, np.int16)
        order = element_order()
        lines = [f"src (int8)  @{a_src:#010x}: {_fmt_list(src)}",
                 f"dst (int16) @{a_dst:#010x}: {_fmt_list(dst)}",
                 f"  = src[i] + {offset} for i = {_fmt_list(order)}"]
        groups = [order[i:i + 4] for i in range(0, n, 4)]
        lines.append("  element order: " + " | ".join(", ".join(f"ch{i}" for i in g)
                                                      for g in groups))
        return lines, {"dst": [int(v) for v in dst], "order": order}

    return Problem(title, fn, (a_src, a_dst, n, offset), mem, build, show)


def _read_and_pad_problem(build, values, offset):
    if not build.dsp_extension:
        raise TraceError("read_and_pad_reordered exists only in the ARM_MATH_DSP build; the "
                         "scalar build reads one int8 at a time with LDRSB (try "
                         "`armsim trace arm_nn_mat_mult_kernel_s8_s16 --path scalar`)")
    src = _int8(values, "values")
    if len(src) != 4:
        raise TraceError("read_and_pad_reordered reads exactly four int8 values (--values a,b,c,d)")
    mem = harness.new_memory()
    a_src = mem.place("sram", src)
    fn = _kernel_fn("read_and_pad_reordered")

    def show(m, ret):
        source, out1, out2 = ret
        lines = [f"source (int8) @{a_src:#010x}: {_fmt_list(src)}",
                 f"returned source = {source:#010x} (+4)",
                 "out1 " + _explain.reg_line("", out1, "halves").strip(),
                 "out2 " + _explain.reg_line("", out2, "halves").strip()]
        # which source byte lands in which lane: the same kernel (counted) on bytes 1..4
        probe = harness.new_memory()
        p_src = probe.place("sram", np.arange(1, 5, dtype=np.int8))
        with harness.on_machine(build, probe) as m:
            _, p1, p2 = _kernel.run(fn, m, p_src)
        idx = [isa.s16(p1) - 1, isa.top16(p1) - 1, isa.s16(p2) - 1, isa.top16(p2) - 1]
        lines.append(f"  out1 = (src[{idx[1]}] << 16) | src[{idx[0]}],  "
                     f"out2 = (src[{idx[3]}] << 16) | src[{idx[2]}]   (lanes high|low)")
        return lines, {"out1": int(out1), "out2": int(out2)}

    return Problem("read_and_pad_reordered (ARM_MATH_DSP, inline)", fn, (a_src,), mem, build,
                   show)


def _mat_mult_problem(build, values, offset, out_ch=2, cols=6, seed=0):
    """Two im2col columns of `cols` int8 values (widened to int16 + offset by the path's
    conversion kernel, as arm_convolve_s8 does) times `out_ch` weight rows.  Requantization
    is the identity (multiplier 2^30, shift 1) so the int8 outputs are the accumulators."""
    rng = np.random.default_rng(seed)
    weights = rng.integers(-4, 5, (out_ch, cols)).astype(np.int8)
    columns = (_int8(values, "values") if values is not None
               else rng.integers(-8, 9, 2 * cols).astype(np.int8))
    if len(columns) != 2 * cols:
        raise TraceError(f"--values: {2 * cols} values (two columns of --cols {cols})")
    bias = rng.integers(-20, 21, out_ch).astype(np.int32)
    dsp = build.dsp_extension
    # the im2col buffer as this path builds it (the conversion runs counted, not traced)
    widen = _widen_problem(build, columns[:cols].tolist(), offset)
    widen2 = _widen_problem(build, columns[cols:].tolist(), offset)
    col_b = []
    for w in (widen, widen2):
        m, _ = w.execute()
        col_b.append(machine.read(m, w.args[1], cols, np.int16))
    mem = harness.new_memory()
    a_b = mem.place("sram", np.concatenate(col_b).astype(np.int16))
    a_a = mem.place("flash", weights)
    a_shift = mem.place("flash", np.ones(out_ch, np.int32))
    a_mult = mem.place("flash", np.full(out_ch, 1 << 30, np.int32))
    a_bias = mem.place("flash", bias)
    a_out = mem.place("sram", 2 * out_ch)
    fn = _kernel_fn("arm_nn_mat_mult_kernel_s8_s16")
    args = (a_a, a_b, out_ch, a_shift, a_mult, 0, -128, 127, cols, cols, a_bias, a_out)

    def show(m, ret):
        out = machine.read(m, a_out, 2 * out_ch, np.int8)
        b_mem = machine.read(m, a_b, 2 * cols, np.int16)
        lines = [f"weights (int8, {out_ch} x {cols}) @{a_a:#010x}:"]
        lines += [f"  row {r}: {_fmt_list(weights[r])}" for r in range(out_ch)]
        lines += [f"columns (int8): {_fmt_list(columns[:cols])} | {_fmt_list(columns[cols:])}",
                  f"im2col (int16, + {offset}) @{a_b:#010x}: {_fmt_list(b_mem[:cols])} | "
                  f"{_fmt_list(b_mem[cols:])}",
                  f"bias: {_fmt_list(bias)}",
                  f"out (int8) @{a_out:#010x}: column 0: {_fmt_list(out[:out_ch])}   "
                  f"column 1: {_fmt_list(out[out_ch:])}"]
        return lines, {"out": [int(v) for v in out]}

    title = ("arm_nn_mat_mult_kernel_s8_s16 " +
             ("(ARM_MATH_DSP: read_and_pad_reordered + SMLAD)" if dsp else "(plain C: MLA)"))
    p = Problem(title, fn, args, mem, build, show)
    p.reference = _mat_mult_reference(weights, columns, cols, offset, bias)
    return p


def _mat_mult_reference(weights, columns, cols, offset, bias):
    c = columns.astype(np.int64).reshape(2, cols) + offset
    acc = c @ weights.astype(np.int64).T + bias          # [column, channel]
    return np.clip(acc, -128, 127).astype(np.int8).ravel().tolist()


PROBLEMS = {
    "arm_s8_to_s16_unordered_with_offset": _widen_problem,
    "read_and_pad_reordered": _read_and_pad_problem,
    "arm_nn_mat_mult_kernel_s8_s16": _mat_mult_problem,
}
DEFAULT_VALUES = {"arm_s8_to_s16_unordered_with_offset": "1,-2,3,-4",
                  "read_and_pad_reordered": "1,-2,3,-4"}


# --- rendering ------------------------------------------------------------------------------

def statement(record):
    """The C statement of a record: the trailing comment of the kernel line that issued
    the instruction, else that line of Python."""
    path = record.file
    line = linecache.getline(path, record.line).rstrip()
    where = f"{Path(path).name}:{record.line}"
    if "#" in line:
        return line.split("#", 1)[1].strip(), where
    return line.strip(), where


_ADDRESS_OPS = {"ldr", "ldrh", "ldrsh", "ldrb", "ldrsb", "ldrd", "str_", "strh", "strb",
                "strd", "ldm2", "ldm4", "stm2", "stm4"}
_BYTE_SIMD = {"sadd8", "ssub8", "uadd8", "usub8", "qadd8", "qsub8", "sel"}
_HALF_SIMD = {"sadd16", "ssub16", "qadd16", "qsub16", "ssat16", "usat16", "pkhbt", "pkhtb",
              "smlad", "smladx", "smlsd", "smuad", "smusd", "smlald", "smulbb", "smulbt",
              "smultb", "smultt", "smlabb", "smlabt", "smlatb", "smlatt"}


def _param_names(op_name):
    fn = getattr(isa, op_name.rstrip("_").upper(), None)
    if fn is not None and hasattr(fn, "py_func"):
        return list(inspect.signature(fn.py_func).parameters)
    return None


def lanes(x, view):
    x = isa.s32(x)
    if view == "b":
        return "(" + "|".join(str(isa.s8(x >> s)) for s in (24, 16, 8, 0)) + ")"
    if view == "h":
        return f"({isa.top16(x)}|{isa.s16(x)})"
    return f"({x})"


def _reg(x, view):
    if view == "w" and machine.FLASH_BASE <= isa.u32(x) < machine.SRAM_BASE + 0x1000_0000:
        return _explain.hex32(x)                  # an address: no lanes
    return f"{_explain.hex32(x)} {lanes(x, view)}"


def _operand_views(op_name):
    if op_name in ("sxtab16", "uxtab16"):
        return {"rn": "h", "rm": "b"}, "h"
    if op_name in ("sxtb16", "uxtb16"):
        return {"rm": "b"}, "h"
    if op_name in ("ror",):
        return {"rm": "b"}, "b"
    if op_name in _BYTE_SIMD:
        return {"rn": "b", "rm": "b"}, "b"
    if op_name in _HALF_SIMD:
        res = "w" if op_name.startswith(("smla", "smua", "smus", "smul")) else "h"
        return {"rn": "h", "rm": "h"}, res
    return {}, "w"


def render_record(i, r):
    """One executed instruction: mnemonic, operands and result (hex and lanes)."""
    name = r.op
    ops_text = []
    result = ""
    if name in _ADDRESS_OPS:
        ops_text.append(f"[{r.operands[0]:#010x}]")
        if len(r.operands) > 1:                   # a store: the value(s) written
            view = "h" if name in ("str_", "strd", "stm2", "stm4") else "w"
            ops_text += [_reg(v, view) if view == "h" else str(isa.s32(v))
                         for v in r.operands[1:]]
        if r.result is not None:
            vals = r.result if isinstance(r.result, tuple) else (r.result,)
            result = ", ".join(f"{_reg(v, 'b')} {lanes(v, 'h')}"
                               if name in ("ldr", "ldrd", "ldm2", "ldm4") else str(v)
                               for v in vals)
    elif name.endswith("_sp") or name == "ldr_lit":
        ops_text.append("[sp]" if name.endswith("_sp") else "[pc, #imm]")
    else:
        params = _param_names(name)
        views, res_view = _operand_views(name)
        for k, v in enumerate(r.operands):
            p = params[k] if params and k < len(params) else None
            if p in ("rotation", "shift", "shift_left", "shift_right", "saturate_to"):
                ops_text.append(f"#{v}")
            elif name in ("bcc", "cbz", "cbnz"):
                ops_text.append("taken" if v else "not taken")
            elif name in ("push", "pop", "pop_pc"):
                ops_text.append(f"{v} regs")
            else:
                ops_text.append(_reg(v, views.get(p, "w")))
        if r.result is not None:
            vals = r.result if isinstance(r.result, tuple) else (r.result,)
            result = ", ".join(_reg(v, res_view) for v in vals)
    text = f"{i:4d}  {r.mnemonic:<8} {', '.join(ops_text)}"
    if result:
        text += f"  ->  {result}"
    if r.fitted:
        text += "  [fitted]"
    return text


def start_index(records, start_at=None, before=10):
    """Index of the first record shown: `before` instructions ahead of the first
    `start_at` mnemonic (0 without one)."""
    if not start_at:
        return 0
    for k, r in enumerate(records):
        if r.mnemonic == start_at.lower() or r.op == start_at.lower():
            return max(0, k - before)
    raise TraceError(f"--start-at {start_at}: this run executes no {start_at.upper()}")


def render_trace(records, max_lines=None, start=0):
    lines = []
    stop = len(records) if max_lines is None else min(len(records), start + max_lines)
    shown = records[start:stop]
    last = None
    base = min((r.depth for r in records), default=0)
    entries = frame_entries(records)
    if start:
        lines.append(f"  ... {start} instructions before (--start-at)")
    for i, r in enumerate(shown, start + 1):
        stmt, where = statement(r)
        if r.function != last:
            lines.append(f"  -- in {r.function}" + ("" if r.depth == base else
                                                     f" ({entries[i - 1]}, depth +{r.depth - base})"))
            last = r.function
        lines.append(render_record(i, r))
        lines.append(f"{'':14}{stmt:<64} {where}")
    if stop < len(records):
        lines.append(f"  ... {len(records) - stop} more instructions (--max-lines)")
    return lines


def frame_entries(records):
    """How the compiled code entered the frame of each record: "called" when a BL or BLX
    led into it, "inlined" when the port's helper is code gcc inlined into its caller
    (a Python function of the port, no call in the compiled code)."""
    how, stack, previous = [], [], None
    for r in records:
        while stack and stack[-1][0] > r.depth:
            stack.pop()
        if not stack or stack[-1][0] < r.depth:
            entered = previous is not None and previous.mnemonic in ("bl", "blx")
            stack.append((r.depth, "called" if entered else "inlined"))
        how.append(stack[-1][1])
        previous = r
    return how


def traced_counts(records):
    return dict(collections.Counter(r.mnemonic for r in records))


def traced_fitted_counts(records):
    return dict(collections.Counter(r.mnemonic for r in records if r.fitted))


def count_table(machines_by_path):
    """Mnemonic counts of counted runs (a Machine, or None: no such run) side by side, plus
    totals and how many of them fitted ops issued (calibrated bookkeeping, not transcribed)."""
    counts_by_path = {p: machine.counts(m) if m is not None else None
                      for p, m in machines_by_path.items()}
    fitted_by_path = {p: machine.fitted_counts(m) if m is not None else None
                      for p, m in machines_by_path.items()}
    paths = list(counts_by_path)
    names = sorted({mn for c in counts_by_path.values() if c for mn in c},
                   key=lambda mn: (CLASS_OF[mn], mn))
    lines = [f"  {'mnemonic':<10}{'class':<8}" + "".join(f"{p:>10}" for p in paths)]
    for mn in names:
        lines.append(f"  {mn:<10}{CLASS_OF[mn]:<8}" + "".join(
            f"{(c.get(mn, 0) if c is not None else '-'):>10}" for c in counts_by_path.values()))
    lines.append(f"  {'total':<18}" + "".join(
        f"{(sum(c.values()) if c is not None else '-'):>10}" for c in counts_by_path.values()))
    lines.append(f"  {'of which fitted':<18}" + "".join(
        f"{(sum(c.values()) if c is not None else '-'):>10}" for c in fitted_by_path.values()))
    return lines


# --- tracing --------------------------------------------------------------------------------

def _values(name, values):
    """The problem's int8 inputs: --values, else its default (None: a seeded random one)."""
    if values is not None:
        return _int_list(values, "values")
    return _int_list(DEFAULT_VALUES[name], "values") if name in DEFAULT_VALUES else None


def trace_problem(name, build, values=None, offset=0, **extra):
    """Trace a named problem on `build`: returns (problem, records, traced machine, shown
    memory lines, data, counted machine)."""
    if name not in PROBLEMS:
        raise TraceError(f"unknown kernel {name!r}; traceable: {', '.join(PROBLEMS)} "
                         "or a CMSIS-NN vector .json file")
    problem = PROBLEMS[name](build, _values(name, values), offset, **extra)
    tracer = _kernel.Tracer(limit=200_000)
    m_traced, ret = problem.execute(tracer)
    shown, data = problem.show(m_traced, ret)
    m_fast, ret_fast = problem.execute()
    return problem, tracer.records, m_traced, shown, data, m_fast


def trace_case(case_path, build):
    """Trace a CMSIS-NN vector case through the harness (a whole op) on `build`."""
    try:
        case = json.loads(Path(case_path).read_text())
    except (OSError, ValueError) as e:
        raise TraceError(f"{case_path}: cannot read a case ({e})") from None
    tracer = _kernel.Tracer(limit=2_000_000)
    try:
        res = harness.run_case(case, build, tracer=tracer)
        fast = harness.run_case(case, build)
    except CaseError as e:
        raise TraceError(f"{case_path}: {e}") from None
    return case, res, tracer.records, fast


def problem_lines(name, build, values, offset, max_lines, extra, start_at=None):
    """The trace of a named problem, as the command prints it."""
    lines = []
    problem, records, m_traced, shown, data, m_fast = trace_problem(name, build, values,
                                                                    offset, **extra)
    lines.append(f"{problem.title}, path {build.path}")
    lines.append("registers: hex (lanes high|low: bytes for int8x4, halfwords for int16x2; loaded words both)")
    lines.append("")
    lines += render_trace(records, max_lines, start_index(records, start_at))
    lines += ["", "memory after the run"] + ["  " + s for s in shown]
    counts = {}
    for b in COMPARED:
        try:
            counts[b.path], _ = PROBLEMS[name](b, _values(name, values), offset,
                                               **extra).execute()
        except TraceError:
            counts[b.path] = None
    assert traced_counts(records) == machine.counts(m_fast), "trace and counted run disagree"
    lines += ["", f"instruction counts (counted runs; this trace: {len(records)} "
              f"instructions, equal to the counted {build.path} run)"]
    lines += count_table(counts)
    if counts.get("scalar") is None:
        lines.append("  (no scalar version: the plain-C build does this work inside the "
                     "caller's loop, one LDRSB per value)")
    return lines


def case_lines(case_path, build, max_lines, start_at=None):
    """The trace of a case file, as the command prints it."""
    case, res, records, fast = trace_case(case_path, build)
    lines = [f"{case.get('case', case_path)} ({case.get('family')}), path {build.path}: "
             f"{' -> '.join(res.kernel_path)}",
             "registers: hex (lanes high|low: bytes for int8x4, halfwords for int16x2; loaded words both)", ""]
    lines += render_trace(records, max_lines, start_index(records, start_at))
    out = res.output                     # the family's output type (int16 for the s16 ones)
    lines += ["", f"output ({out.dtype}, {out.size} values): {_fmt_list(out[:32], 4)}"
              + (" ..." if out.size > 32 else "")]
    if "output_ref" in case:
        same = np.array_equal(out, np.asarray(case["output_ref"], out.dtype).ravel())
        lines.append(f"  equals the case's output_ref: {'yes' if same else 'NO'}")
    counts = {b.path: harness.run_case(case, b).m for b in COMPARED}
    assert traced_counts(records) == fast.counts(), "trace and counted run disagree"
    lines += ["", f"instruction counts (counted runs; this trace: {len(records)} "
              f"instructions, equal to the counted {build.path} run)"]
    lines += count_table(counts)
    return lines


def trace_model_op(model, op_index, build, limit=2_000_000):
    """Trace op `op_index` of `model` (an `armsim.pipeline.model.Model`) on `build`: the ops
    before it run counted to produce its input."""
    steps = prepare.prepare(model)
    if not 0 <= op_index < len(steps):
        raise TraceError(f"--op {op_index}: the model has ops 0..{len(steps) - 1}")
    values = {t.index: x for t, x in zip(model.input_tensors(), profiler.random_inputs(model))}
    for step in steps[:op_index]:
        _, _, _, out = harness.run_step(step, values, build)
        values[step.output] = np.asarray(out).reshape(step.output_shape)
    step = steps[op_index]
    if step.host:
        raise TraceError(f"op {op_index} {step.op} runs on the host (float), nothing to trace")
    tracer = _kernel.Tracer(limit=limit)
    try:
        m, names, chain, out = harness.run_step(step, values, build, tracer=tracer)
    except RuntimeError as e:
        raise TraceError(f"op {op_index} {step.op}: {e}") from None
    fast = {b.path: harness.run_step(step, values, b)[0] for b in COMPARED}
    return model, step, chain, tracer.records, m, out, fast


def model_lines(model, op_index, build, max_lines, start_at):
    """The trace of one op of a model, as the command prints it."""
    model, step, chain, records, m, out, fast = trace_model_op(model, op_index, build)
    lines = [f"{model.name} op {op_index} {step.op}, path {build.path}: {' > '.join(chain)}",
             "registers: hex (lanes high|low: bytes for int8x4, halfwords for int16x2; "
             "loaded words both)", ""]
    lines += render_trace(records, max_lines if max_lines is not None else 200,
                          start_index(records, start_at))
    flat = np.asarray(out).ravel()
    lines += ["", f"output {list(step.output_shape)} (int8): {_fmt_list(flat[:32], 4)}"
              + (" ..." if flat.size > 32 else "")]
    assert traced_counts(records) == machine.counts(fast[build.path]), \
        "trace and counted run disagree"
    lines += ["", f"instruction counts (counted runs; this trace: {len(records)} "
              f"instructions, equal to the counted {build.path} run)"]
    lines += count_table(fast)
    return lines
