"""Why a layer takes its kernel path, and what a nearby variant of the layer would cost.

Dispatch, explained from the code that runs.  The CMSIS-NN wrappers
(`arm_convolve_wrapper_s8`, `arm_depthwise_conv_wrapper_s8`, `arm_fully_connected_wrapper_s8`)
decide with CMP + conditional branch pairs, as the compiled C does.  `dispatch` runs the
op's wrapper traced (`armsim.cpu.kernel.Tracer`, the same code object as the counted run) up
to the branch into the chosen kernel, and reads every conditional branch the wrapper
executed: the branch's condition as written in the port (`bcc(m, kernel_x != 1)`; a helper's
parameters replaced by the wrapper's arguments), the values it compared and whether it was
taken.  The reasons are the conditions that held and left a faster path (or, in the fully
connected wrapper, selected the per-tensor kernel): a taken branch out of a check, or a
branch gcc takes on success (`beq` on `stride_x == 1`) not taken, so `stride_x != 1` held
(`Branch.steers_away`).  No rule is written down twice: change the port and the
explanation follows.  Ops without a wrapper (pooling, softmax, elementwise) have a single
CMSIS-NN kernel; their reason says so, naming the kernel TFLM's Eval calls.

Counterfactuals.  Where a reason tested a layer option a converter can change
(padding, stride, dilation) and the changed layer's own traced dispatch hands it to another
kernel, `counterfactuals` cuts the op into a one-op model
(`armsim.pipeline.tflm_host.cut`), changes that option (the output shape follows, as Prepare
computes it), and profiles both the unchanged and the changed one-op model on the same
seeded input: the cycles are a run of the changed layer, not an estimate.
"""
import ast
import importlib
import linecache
import sys
from dataclasses import dataclass, field

import numpy as np

from armsim import operators
from armsim.cpu.instructions import CLASS_OF
from armsim.cpu.kernel import Tracer, run
from armsim.operators import common
from armsim.pipeline import harness, profiler, tflm_host
from armsim.pipeline import model as model_mod
from armsim.pipeline import prepare as prepare_mod

# a wrapper variable -> the layer option a counterfactual changes, and the value it tries
_OPTION_OF = {"pad_x": ("Padding", 1), "pad_y": ("Padding", 1),            # VALID
              "stride_x": ("Stride", 1), "stride_y": ("Stride", 1),
              "dilation_x": ("Dilation", 1), "dilation_y": ("Dilation", 1)}
_OPTION_TEXT = {("Padding", 1): "padding VALID", ("Stride", 1): "stride 1",
                ("Dilation", 1): "dilation 1"}
#: the options a counterfactual changes: an op whose options have them all (the convolutions)
_CHANGED_OPTIONS = ("Padding", "StrideW", "StrideH", "DilationWFactor", "DilationHFactor")


@dataclass
class Branch:
    """One conditional branch the wrapper executed."""
    condition: str            # as written in the port, in the wrapper's names: "kernel_x != 1"
    values: dict              # the wrapper variables in it -> their values
    taken: bool               # the condition held
    note: str = ""            # the port's comment at that point (the C it mirrors)

    @property
    def held(self):
        """The condition as it held: its own text when taken, else negated."""
        return self.condition if self.taken else _negated(self.condition)

    @property
    def steers_away(self):
        """Whether the condition that held led away from the wrapper's first path: a taken
        branch out of a check (`kernel_x != 1`), or a branch on success not taken (gcc's
        `beq` on `stride_x == 1`, so `stride_x != 1` held)."""
        return self.taken != _is_equality(self.condition)

    def text(self):
        shown = ", ".join(f"{k} = {v}" for k, v in self.values.items())
        return (f"{self.note}: " if self.note else "") + self.held + \
            (f" ({shown})" if shown else "")


@dataclass
class Dispatch:
    index: int
    op: str
    kernel: str               # the chain the counted run took, "a > b > c"
    reason: str               # one line
    branches: list = field(default_factory=list)
    leaf: str = ""            # the function the wrapper handed over to ("" without wrapper)

    @property
    def reasons(self):
        """The branches whose condition led away from the wrapper's first path, each as the
        condition that held (`Branch.steers_away`)."""
        return [Branch(b.held, b.values, True, b.note) for b in self.branches if b.steers_away]

    def to_json(self):
        return {"index": self.index, "op": self.op, "kernel": self.kernel,
                "reason": self.reason,
                "branches": [{"condition": b.condition, "values": b.values, "taken": b.taken,
                              "note": b.note} for b in self.branches]}


@dataclass
class Counterfactual:
    change: str               # "padding VALID"
    because: str              # the taken branch it answers: "pad_x != 0 (pad_x = 1)"
    kernel: str               # the changed layer's kernel chain
    cycles: int               # the changed one-op model's cycles
    baseline_cycles: int      # the unchanged one-op model's, same input
    macs: int
    baseline_macs: int
    model: bytes = b""        # the changed one-op .tflite

    @property
    def delta(self):
        return (self.cycles - self.baseline_cycles) / self.baseline_cycles \
            if self.baseline_cycles else 0.0

    def text(self):
        macs = (f"; MACs {self.baseline_macs:,} -> {self.macs:,}, cycles/MAC "
                f"{self.baseline_cycles / self.baseline_macs:.2f} -> "
                f"{self.cycles / self.macs:.2f}") \
            if self.macs != self.baseline_macs and self.macs and self.baseline_macs else ""
        return (f"with {self.change}: {_leaf(self.kernel)}, {self.cycles:,} cycles vs "
                f"{self.baseline_cycles:,} ({100 * self.delta:+.0f} %{macs})")

    def to_json(self):
        return {"change": self.change, "because": self.because, "kernel": self.kernel,
                "cycles": self.cycles, "baseline_cycles": self.baseline_cycles,
                "macs": self.macs, "baseline_macs": self.baseline_macs, "delta": self.delta}


class _Handover(Exception):
    """The wrapper branched into the kernel it chose: the trace has what it needs."""


_CONDITIONAL = ("bcc", "cbz", "cbnz")


class _BranchTracer(Tracer):
    """A tracer that keeps only the wrapper's conditional branches and stops at the first
    instruction of the kernel the wrapper hands over to: after the wrapper's own B/BL into
    it (a wrapper that calls its kernel), or outside the wrapper once it ran (a wrapper whose
    kernel the host runs after it, as arm_convolve_wrapper_s8's)."""

    def __init__(self, wrapper):
        self.wrapper_code = wrapper.py_func.__code__
        self.branches = []
        self.leaf = None              # the function the wrapper handed over to
        self._handing_over = False
        self._started = False
        super().__init__()

    def _wrap(self, op):
        body, name = op.body, op.name
        wrapper_code, branches = self.wrapper_code, self.branches

        def recorded(m, *operands):
            result = body(m, *operands)
            here = sys._getframe(1)
            frame = here
            while frame is not None and frame.f_code not in (wrapper_code, run.__code__):
                frame = frame.f_back
            inside = frame is not None and frame.f_code is wrapper_code
            if (self._handing_over and here.f_code is not wrapper_code) or \
                    (self._started and not inside):
                frame = here          # the callee: up to the function the wrapper or host ran
                while frame.f_back is not None and \
                        frame.f_back.f_code not in (wrapper_code, run.__code__):
                    frame = frame.f_back
                self.leaf = frame.f_code.co_name
                raise _Handover
            self._started = self._started or inside
            self._handing_over = here.f_code is wrapper_code and name in ("b", "bl")
            if name in _CONDITIONAL:
                caller = here.f_back
                if here.f_code is wrapper_code:
                    branches.append(_branch(here, None, bool(operands[0])))
                elif caller is not None and caller.f_code is wrapper_code:
                    branches.append(_branch(here, caller, bool(operands[0])))
            return result
        recorded.__name__ = name
        return recorded


def _call_at(frame, names):
    """The call to one of `names` on `frame`'s current source line (an ast.Call), or None."""
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
    try:
        tree = ast.parse(line.split("  #")[0].strip())
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in names:
            return node
    return None


def _comment(frame, lineno=None):
    line = linecache.getline(frame.f_code.co_filename, lineno or frame.f_lineno)
    return line.split("#", 1)[1].strip() if "#" in line else ""


def _branch(frame, caller, taken):
    """The Branch of the bcc executing on `frame` (the wrapper, or a helper the wrapper
    called from `caller`)."""
    call = _call_at(frame, _CONDITIONAL)
    if call is None or len(call.args) < 2:
        return Branch("?", {}, taken)
    condition = call.args[1]
    if isinstance(condition, ast.UnaryOp) and isinstance(condition.op, ast.Not) \
            and isinstance(condition.operand, ast.Compare):
        # `bcc(m, not <comparison>)`: gcc branches when the check holds (BEQ to the next
        # check); the Branch is the failed check, taken when the branch was not
        condition, taken = condition.operand, not taken
    values = {}
    note = _comment(frame) or _comment(frame, frame.f_lineno - 1)
    if caller is not None:                        # helper: its parameters -> wrapper's names
        helper_call = _call_at(caller, (frame.f_code.co_name,))
        params = frame.f_code.co_varnames[:frame.f_code.co_argcount]
        given = dict(zip(params, helper_call.args)) if helper_call is not None else {}
        for node in ast.walk(condition):
            arg = given.get(node.id) if isinstance(node, ast.Name) else None
            if isinstance(arg, ast.Name):
                values[arg.id] = int(frame.f_locals[node.id])

        class Rename(ast.NodeTransformer):
            def visit_Name(self, node):
                arg = given.get(node.id)
                return ast.copy_location(arg, node) if arg is not None else node
        condition = Rename().visit(condition)
        note = _comment(caller) or _group(caller) or note
    if caller is None:
        for node in ast.walk(condition):
            if isinstance(node, ast.Name) and node.id in frame.f_locals:
                value = frame.f_locals[node.id]
                if isinstance(value, (int, bool, np.integer, np.bool_)):
                    values[node.id] = int(value)
        note = note or _group(frame)
    return Branch(ast.unparse(condition), values, taken, note)


def _leaf(kernel):
    """The kernels that did the work: a chain without its wrapper and TFLM's Eval glue."""
    parts = [p for p in kernel.split(" > ") if "Eval" not in p and "GetTensorShape" not in p
             and "GetEval" not in p and not p.endswith("_wrapper_s8")]
    return " > ".join(parts) if parts else kernel


def _is_equality(condition):
    """Whether `condition` (source text) is one `==` comparison."""
    tree = ast.parse(condition, mode="eval").body
    return isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.Eq)


def _negated(condition):
    """`condition` (source text) as it reads when its branch is not taken."""
    tree = ast.parse(condition, mode="eval").body
    inverse = {ast.NotEq: ast.Eq, ast.Eq: ast.NotEq, ast.Gt: ast.LtE, ast.LtE: ast.Gt,
               ast.Lt: ast.GtE, ast.GtE: ast.Lt}
    if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.Not):
        return ast.unparse(tree.operand)
    if isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in inverse:
        tree.ops = [inverse[type(tree.ops[0])]()]
        return ast.unparse(tree)
    return f"not ({condition})"


def _group(frame):
    """The C predicate the wrapper's code at `frame` evaluates: the nearest comment line
    above naming a CMSIS-NN function (`# arm_nn_is_convolve_1x1(...)`), or ''."""
    for lineno in range(frame.f_lineno - 1, frame.f_code.co_firstlineno, -1):
        text = linecache.getline(frame.f_code.co_filename, lineno).strip()
        if text.startswith("# arm_"):
            return text[2:].split("(")[0]
    return ""


def dispatch(model, step, kernel, build):
    """The `Dispatch` of one prepared op (`step`) whose counted run took `kernel` (the chain
    of its `OpProfile`) on `build` (a `Build`)."""
    wrapper = _wrapper(operators.get(step.op))
    via = step.cmsis_function
    leaf = _leaf(kernel)
    if step.host or step.reference_only or not build.cmsis_nn or via or wrapper is None:
        return Dispatch(step.index, step.op, kernel, _no_dispatch(step, kernel, build, via))
    tracer = _BranchTracer(wrapper)
    values = {i: np.zeros(model.tensors[i].shape, np.int8)
              for i in (step.inputs.get("input"), step.inputs.get("input2")) if i is not None}
    try:
        harness.run_step(step, values, build, tracer=tracer)
    except _Handover:
        pass
    away = [b for b in tracer.branches if b.steers_away]
    if away:
        reason = f"{leaf}: " + "; ".join(b.text() for b in away)
    else:
        reason = f"{leaf}: the wrapper's first path, every check held (" + \
            ", ".join(b.held for b in tracer.branches) + ")"
    return Dispatch(step.index, step.op, kernel, reason, tracer.branches, tracer.leaf or "")


def _wrapper(operator):
    """The CMSIS-NN wrapper kernel an op's Eval calls, when it dispatches among kernels (the
    Operator's `wrapper`); None otherwise."""
    if operator is None or not operator.wrapper:
        return None
    name = operator.cmsis_entry
    return getattr(importlib.import_module(f"armsim.kernels.cmsis_nn.{name}"), name)


def _no_dispatch(step, kernel, build, via):
    leaf = _leaf(kernel)
    if not build.cmsis_nn and not step.host:
        return f"{leaf}: the reference path runs TFLM's reference kernel, no CMSIS-NN dispatch"
    if via:
        return (f"{leaf}: TFLM's Eval glue calls {via} directly for this layer "
                f"(armsim.operators.{step.op.lower()})")
    if step.host:
        return f"{step.op}: computed on the host, not simulated"
    if step.reference_only:
        why = step.reference_why or f"CMSIS-NN has no kernel for {step.op}"
        return f"{leaf}: TFLM's reference kernel ({why})"
    return f"{leaf}: the one CMSIS-NN kernel for {step.op} (no dispatch)"


def dispatches(model, prof, steps=None):
    """`Dispatch` of every op of a `profiler.ModelProfile` of `model`."""
    steps = steps if steps is not None else prepare_mod.prepare(model)
    return [dispatch(model, s, o.kernel, prof.build) for s, o in zip(steps, prof.ops)]


# --- counterfactuals ----------------------------------------------------------------------

def changed_layer(model, op, option, value):
    """The .tflite bytes of `op` alone with `option` ("Padding", "Stride", "Dilation") set to
    `value` on both axes, the output shape recomputed as Prepare does; None if the change
    is no change or gives an empty output."""
    schema = tflm_host._schema()
    one = schema.ModelT.InitFromPackedBuf(bytearray(tflm_host.cut(model, op)), 0)
    graph = one.subgraphs[0]
    node = graph.operators[0]
    opts = node.builtinOptions
    fields = {"Padding": ("padding",), "Stride": ("strideH", "strideW"),
              "Dilation": ("dilationHFactor", "dilationWFactor")}[option]
    if all(getattr(opts, f) == value for f in fields):
        return None
    for f in fields:
        setattr(opts, f, value)
    inp = graph.tensors[node.inputs[0]]
    filt = graph.tensors[node.inputs[1]]
    out = graph.tensors[node.outputs[0]]
    _, fh, fw, _ = filt.shape
    _, ih, iw, _ = inp.shape
    oh, _ = common.padding(opts.padding, opts.strideH, opts.dilationHFactor, ih, fh)
    ow, _ = common.padding(opts.padding, opts.strideW, opts.dilationWFactor, iw, fw)
    if oh <= 0 or ow <= 0:
        return None
    out.shape = [out.shape[0], oh, ow, out.shape[3]]
    import flatbuffers
    builder = flatbuffers.Builder(1024)
    builder.Finish(one.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def profile_layer(model_bytes, name, build, **run_options):
    """Profile a (one-op) model from bytes on its seeded random input on `build`; (cycles,
    MACs, kernel chain) of its op."""
    m = model_mod.parse(model_bytes, name)
    prof = profiler.run(m, build, **run_options)
    o = prof.ops[0]
    return o.cycles, o.macs, o.kernel


def _handed_to(model_bytes, name, build):
    """The kernel the wrapper hands a one-op model's layer to (its traced dispatch)."""
    m = model_mod.parse(model_bytes, name)
    step = prepare_mod.prepare(m)[0]
    return dispatch(m, step, "", build).leaf


def counterfactuals(model, dispatch_, build, **run_options):
    """Counterfactual layers for the options the taken branches of `dispatch_` tested, where
    the changed layer takes another path through the wrapper (its own traced dispatch
    says so); each profiled, with the unchanged one-op layer as baseline."""
    op = model.operators[dispatch_.index]
    operator = operators.get(op.op)
    if operator is None or not set(_CHANGED_OPTIONS) <= set(operator.option_fields) \
            or not build.cmsis_nn:
        return []
    tried, out = set(), []
    baseline = None
    for b in dispatch_.reasons:
        for var in b.values:
            change = _OPTION_OF.get(var)
            if change is None or change in tried:
                continue
            tried.add(change)
            changed = changed_layer(model, op, *change)
            name = f"{model.name}-op{op.index}-{change[0].lower()}"
            if changed is None or _handed_to(changed, name, build) == dispatch_.leaf:
                continue
            if baseline is None:
                baseline = profile_layer(tflm_host.cut(model, op), f"{model.name}-op{op.index}",
                                         build, **run_options)
            cycles, macs, kernel = profile_layer(changed, name, build, **run_options)
            out.append(Counterfactual(_OPTION_TEXT[change], b.text(), kernel, cycles,
                                      baseline[0], macs, baseline[1], changed))
    return out


# --- why no SIMD gain -----------------------------------------------------------------------

# the stages the DSP extension speeds up: dual 16-bit MACs (SMLAD), four bytes unpacked by
# two SXTB16 / SXTAB16, and a word load where plain C loads each byte; every other stage does
# the same work on both builds (armsim.cpu.machine.STAGES)
SIMD_STAGES = ("mac", "unpack", "loads")
LOW_GAIN = 1.3      # below this simd / scalar speed-up, `simd_gain` gives the reason


@dataclass
class SimdGain:
    """What the DSP build buys on one op: the speed-up, and the share of each path's cycles
    in stages SIMD cannot speed up (requantize, im2col copies, bookkeeping, ...)."""
    index: int
    op: str
    speedup: float            # scalar cycles / simd cycles
    fixed_share: dict         # path -> share of its cycles outside SIMD_STAGES
    simd_stage_speedup: float  # the SIMD stages alone: scalar / simd cycles
    reason: str               # why the gain is below LOW_GAIN ("" when it is not)

    def to_json(self):
        return {"speedup": self.speedup, "fixed_share": self.fixed_share,
                "simd_stage_speedup": self.simd_stage_speedup, "reason": self.reason}


def simd_gain(simd, scalar):
    """The `SimdGain` of one op from its `OpProfile`s on the simd and scalar paths (their
    stage splits, `armsim.cpu.cores.stage_breakdown`); None for an op not simulated."""
    if not simd.simulated or not scalar.simulated or not simd.cycles:
        return None
    speedup = scalar.cycles / simd.cycles

    def vectorisable(o):
        return sum(o.stages.get(s, {}).get("cycles", 0) for s in SIMD_STAGES)
    fixed = {p: 1 - vectorisable(o) / o.cycles for p, o in (("simd", simd), ("scalar", scalar))}
    v_simd, v_scalar = vectorisable(simd), vectorisable(scalar)
    stage_speedup = v_scalar / v_simd if v_simd else 1.0
    reason = ""
    if speedup < LOW_GAIN:
        if simd.reference:
            reason = (f"no CMSIS-NN kernel for {simd.op}: TFLM's reference kernel runs on both "
                      f"builds, so the DSP extension changes nothing")
        elif not any(CLASS_OF[mn] in ("dspmac", "simd") for mn in simd.mnemonics):
            reason = (f"{_leaf(simd.kernel)} has no ARM_MATH_DSP code: the DSP build executes "
                      f"no SIMD or dual-MAC instruction here, the same work as plain C")
        else:
            top = sorted(((r["cycles"], s) for s, r in scalar.stages.items()
                          if s not in SIMD_STAGES), reverse=True)[:3]
            parts = ", ".join(f"{s} {100 * c / scalar.cycles:.0f} %" for c, s in top if c)
            reason = (f"{speedup:.2f}x: {100 * fixed['scalar']:.0f} % of the plain-C build's "
                      f"cycles are in stages SIMD does not speed up ({parts})")
            if stage_speedup < LOW_GAIN:
                reason += (f"; even the MAC, unpacking and load stages gain only "
                           f"{stage_speedup:.2f}x in {_leaf(simd.kernel)}")
    return SimdGain(simd.index, simd.op, speedup, fixed, stage_speedup, reason)
