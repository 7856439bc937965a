"""The runner: one op on a fresh machine of a `Build`, as a case or as a prepared step.

A case is an op in the CMSIS-NN vectors' JSON schema (../shared/cmsis_nn_vectors/README.md),
the single interface between the model layer, the `armsim kernel` command, the tests and the
kernels: the model layer derives such a case from a .tflite op (`prepare`), the vectors and
measurements already are cases.  `run_case` runs one through its family
(`armsim.kernels.families`): CMSIS-NN's entry point on the ``simd`` and ``scalar`` builds,
TFLM's reference port on ``reference``.  `run_step` runs a prepared step: through
`run_case`, or an op with no CMSIS-NN family through its TFLM reference port, or on the
host, then TFLM's Eval glue on the same machine.  Both lay out a memory map and run the
kernel `on_machine`, the one place a kernel gets a machine (the teaching trace too).

Memory layout, as on a TFLM target: constant data (weights, bias, per-channel multipliers
and shifts, tables) in flash, activations and the kernel's scratch buffer in SRAM.
"""
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from armsim import operators
from armsim.cpu import machine
from armsim.errors import CaseError, ProfileError
from armsim.kernels.families import family, output_dtype
from armsim.kernels.tflm import eval_glue
from armsim.pipeline import tflm_host

#: activations in SRAM, constant data (weights, bias, per-channel quantization) in flash
ARRAYS = {"input": ("sram", np.int8), "input2": ("sram", np.int8),
          "weights": ("flash", np.int8), "bias": ("flash", np.int32),
          "output_mult": ("flash", np.int32), "output_shift": ("flash", np.int32)}


@dataclass
class Result:
    case: str
    family: str
    build: object              # the `Build` it ran on
    kernel_path: list          # entry point, then each kernel it dispatched to
    output: np.ndarray
    m: machine.Machine
    region_names: list = field(default_factory=list)
    addr: dict = field(default_factory=dict)   # simulated address of each placed array

    def counts(self):
        return machine.counts(self.m)

    def fitted_counts(self):
        """Of `counts()`, the instructions issued by fitted ops."""
        return machine.fitted_counts(self.m)

    @property
    def instructions(self):
        return sum(self.counts().values())


def output_count(case):
    module = family(case.get("family"))
    if hasattr(module, "output_count"):
        return module.output_count(case)
    d = case["output_dims"]
    return d["n"] * d["h"] * d["w"] * d["c"]


def new_memory():
    """An empty memory map of a TFLM target: SRAM (activations, scratch) and flash."""
    return machine.Memory().region("sram", machine.SRAM_BASE, 0) \
        .region("flash", machine.FLASH_BASE, 0)


@contextmanager
def on_machine(build, memory, runs_cmsis_nn=True):
    """A fresh machine of `build` over `memory` for the kernels run in the `with` block (a
    context, not a call, so a trace's call depths are the kernels' own).  An access outside
    every region is a MemoryFault naming the memory map."""
    m = build.machine(memory, runs_cmsis_nn)
    try:
        yield m
    except machine.MemoryFault as fault:
        raise machine.MemoryFault(machine.fault_message(m, memory.names)) from fault


def layout(case, scratch_bytes):
    """Place the case's arrays: returns (Memory, addresses by field name)."""
    mem = new_memory()
    addr = {}
    module = family(case.get("family"))
    arrays = {**ARRAYS, **getattr(module, "ARRAYS", {})}
    if hasattr(module, "case_arrays"):        # array types that depend on the case
        arrays.update(module.case_arrays(case))
    for region in ("sram", "flash"):          # activations first, as before
        for name, (where, dtype) in arrays.items():
            if where == region and name in case:
                addr[name] = mem.place(region, np.asarray(case[name], dtype))
    if hasattr(module, "derived_arrays"):    # Prepare's precomputed data, library tables
        for name, (region, data) in module.derived_arrays(case).items():
            addr[name] = mem.place(region, data)
    if case.get("bias_is_null"):
        addr["bias"] = 0                      # a NULL bias pointer
    addr["output"] = mem.place("sram", output_count(case) * output_dtype(module).itemsize)
    addr["scratch"] = mem.place("sram", scratch_bytes) if scratch_bytes else 0
    addr["scratch_bytes"] = scratch_bytes
    return mem, addr


def run_case(case, build, function=None, tracer=None):
    """Run `case` on `build` (a `Build`); `function` names the CMSIS-NN entry point
    (default: the wrapper the model layer would call).  Returns a `Result`; raises
    CaseError."""
    module = family(case.get("family"))
    if build.cmsis_nn:
        scratch = module.buffer_size(case, build.dsp_extension, build.armclang)
    else:   # TFLM's reference Prepare may request a scratch buffer too
        scratch = getattr(module, "reference_buffer_size", lambda case: 0)(case)
    mem, addr = layout(case, scratch)
    with on_machine(build, mem) as m:
        if build.cmsis_nn:
            chain = module.run_cmsis(m, case, addr, function, tracer)
        else:
            chain = module.run_reference(m, case, addr, tracer)
    output = machine.read(m, addr["output"], output_count(case), output_dtype(module))
    return Result(case.get("case", "?"), case["family"], build, chain, output, m,
                  list(mem.names), addr)


def reference_layout(step, values):
    """Place a reference-only step's operands (`values`: tensor index -> array): returns
    (Memory, addresses, element counts of its output buffers)."""
    mem = new_memory()
    addr = {}
    if "inputs" in step.inputs:
        # a constant operand the port reads from memory: in flash
        addr["inputs"] = [mem.place("flash", step.constants[i]) if i in step.constants
                          else mem.place("sram", values[i]) for i in step.inputs["inputs"]]
    else:
        addr["input"] = mem.place("sram", values[step.inputs["input"]])
    # several outputs (UNPACK, SPLIT): one buffer each in addr["outputs"]
    itemsize = np.dtype(step.output_dtype).itemsize
    counts = step.output_counts or [int(np.prod(step.output_shape, dtype=np.int64))]
    addr["outputs"] = [mem.place("sram", max(n * itemsize, 1)) for n in counts]
    addr["output"] = addr["outputs"][0]
    scratch = step.case.get("scratch_bytes", 0)     # several buffers: a list of sizes
    if isinstance(scratch, list):
        addr["scratch"] = [mem.place("sram", int(n)) for n in scratch]
    else:
        addr["scratch"] = mem.place("sram", int(scratch)) if scratch else 0
    # the tables the kernel reads by name (int16 LOGISTIC's sigmoid_table_uint16)
    for name, table in step.tables.items():
        addr[name] = mem.place("flash", table)
    return mem, addr, counts


def _run_reference(step, values, build, run_reference, tracer):
    """A reference-only step: its Operator's TFLM port on a fresh machine."""
    mem, addr, counts = reference_layout(step, values)
    # TFLM's kernels: CMSIS_NN_USE_SINGLE_ROUNDING does not reach them (some ports share
    # arm_nn_requantize's code for MultiplyByQuantizedMultiplier)
    with on_machine(build, mem, runs_cmsis_nn=False) as m:
        chain = run_reference(m, step.case, addr, tracer)
    outs = [machine.read(m, a, n, step.output_dtype) for a, n in zip(addr["outputs"], counts)]
    return m, list(mem.names), chain, outs if step.output_counts is not None else outs[0]


def run_step(step, values, build, tracer=None):
    """Execute one prepared step on `build` (a `Build`), its operands in `values` (tensor
    index -> array); returns (machine or None, region names, kernel chain, output)."""
    operator = operators.get(step.op)
    if step.host and step.family == "tflm":
        xs = [values[i] for i in step.inputs["inputs"]]
        outs = tflm_host.run(step.tflm_model, xs, f"op {step.index} {step.op}")
        return None, [], [f"TFLM on the host (not simulated: {step.host_reason})"], outs
    if step.host:
        x = values[step.inputs["input"]]
        return (None, [], [f"host {step.family} (float, not simulated)"],
                operator.run_host(step.case, x))
    if step.reference_only:
        m, names, chain, out = _run_reference(step, values, build, operator.run_reference,
                                              tracer)
        kind = "reference"
    else:
        cmsis = build.cmsis_nn
        case = dict(step.cmsis_case if cmsis and step.cmsis_case is not None else step.case)
        if "input" in step.inputs:             # else a constant operand held in the case
            case["input"] = values[step.inputs["input"]].ravel()
        if "input2" in step.inputs:
            case["input2"] = values[step.inputs["input2"]].ravel()
        function = (step.cmsis_function or operator.cmsis_entry) if cmsis else None
        try:
            res = run_case(case, build, function=function, tracer=tracer)
        except CaseError as e:
            raise ProfileError(f"op {step.index} {step.op}: {e}") from None
        m, names, chain, out = res.m, res.region_names, res.kernel_path, res.output
        kind = "cmsis" if cmsis else "reference"
    scratch = machine.SRAM_BASE
    sram_size = int(m.rtab[names.index("sram"), 1]) if "sram" in names else 0
    ranks = [min(len(step.output_shape) or 1, max(sram_size // 4, 1))]
    chain = list(chain) + eval_glue.run_glue(m, step.op, operator.glue.get(kind), ranks,
                                             scratch, build.dsp_extension, tracer,
                                             len(step.inputs.get("inputs", ())))
    return m, names, chain, out
