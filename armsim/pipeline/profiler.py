"""Profile a model on one build: run its prepared steps in order and price what each
executed.

Each step runs on a fresh machine through `armsim.pipeline.harness.run_step` (its CMSIS-NN
family, or its TFLM reference port, then TFLM's Eval glue; float QUANTIZE / DEQUANTIZE and
ops armsim has no port for are computed on the host and marked ``simulated: false``); its
output feeds the steps after it.  Counts, cycles (`armsim.cpu.cores`) and outputs come from
executing the kernels.
"""
import contextlib
import os
from dataclasses import dataclass, field

import numpy as np

from armsim.cpu import cores, machine, memory
from armsim.errors import ProfileError
from armsim.infra import precompile
from armsim.pipeline import harness
from armsim.pipeline import prepare as prepare_mod
from armsim.pipeline.build import Build

DEFAULT_SEED = 0


@dataclass
class OpProfile:
    index: int
    op: str
    kernel: str                  # kernel path, e.g. "arm_convolve_wrapper_s8 > arm_convolve_s8"
    reference: bool              # ran a TFLM reference kernel (no CMSIS-NN port or path)
    output_shape: tuple
    macs: int
    mnemonics: dict
    cycles: int
    simulated: bool
    breakdown: dict = field(default_factory=dict)
    types: str = ""              # activation / weight types, e.g. "int8", "int16x8"
    fitted: dict = field(default_factory=dict)  # of `mnemonics`, those issued by fitted ops
    stages: dict = field(default_factory=dict)  # stage -> {"cycles", "instructions"} (cores)
    corner_cycles: object = None  # with a board: cycles per `MemorySystem.corners()` system

    @property
    def cycles_min(self):
        """The fewest cycles over the board's assumed figures' ranges (`cores.corner_cycles`);
        `cycles` without a board or assumed figures."""
        return self.cycles if self.corner_cycles is None else int(self.corner_cycles.min())

    @property
    def cycles_max(self):
        return self.cycles if self.corner_cycles is None else int(self.corner_cycles.max())

    @property
    def instructions(self):
        return sum(self.mnemonics.values())

    @property
    def fitted_instructions(self):
        return sum(self.fitted.values())


@dataclass
class ModelProfile:
    model: str
    build: Build
    clock_mhz: float
    flash_wait_states: int
    ops: list
    outputs: list                # graph outputs (numpy arrays)
    board: object = None         # armsim.data.boards.Configuration the memory was priced with

    @property
    def macs(self):
        return sum(o.macs for o in self.ops)

    @property
    def instructions(self):
        return sum(o.instructions for o in self.ops)

    @property
    def cycles(self):
        return sum(o.cycles for o in self.ops)

    @property
    def fitted_instructions(self):
        return sum(o.fitted_instructions for o in self.ops)

    def _corner_totals(self):
        """The whole model's cycles on each corner system: one board, so one corner for
        every op at once (the sum of per-op minima would mix corners)."""
        vectors = [o.corner_cycles for o in self.ops if o.corner_cycles is not None]
        return np.sum(vectors, axis=0) if vectors else np.array([self.cycles])

    @property
    def cycles_min(self):
        return int(self._corner_totals().min())

    @property
    def cycles_max(self):
        return int(self._corner_totals().max())

    @property
    def not_simulated(self):
        """How many ops were computed on the host (no counts, no cycles, MACs unknown)."""
        return sum(not o.simulated for o in self.ops)

    def latency_ms(self):
        return cores.latency_ms(self.cycles, self.clock_mhz)

    def to_json(self, arena_bytes=None):
        return {
            "model": self.model, "core": self.build.core, "path": self.build.path,
            "toolchain": self.build.toolchain, "clock_mhz": self.clock_mhz,
            "flash_wait_states": self.flash_wait_states,
            "build": self.build.describe(),
            "board": self.board.to_json() if self.board is not None else None,
            "ops": [{"index": o.index, "op": o.op, "kernel": o.kernel,
                     "reference": o.reference, "output_shape": list(o.output_shape),
                     "macs": o.macs, "instructions": o.instructions, "cycles": o.cycles,
                     "cycles_min": o.cycles_min, "cycles_max": o.cycles_max,
                     "mnemonics": dict(sorted(o.mnemonics.items(), key=lambda kv: -kv[1])),
                     "fitted_instructions": o.fitted_instructions,
                     "fitted_mnemonics": dict(sorted(o.fitted.items(), key=lambda kv: -kv[1])),
                     "stages": o.stages,
                     "simulated": o.simulated, "types": o.types} for o in self.ops],
            "total": {"macs": self.macs, "instructions": self.instructions,
                      "fitted_instructions": self.fitted_instructions,
                      "cycles": self.cycles, "cycles_min": self.cycles_min,
                      "cycles_max": self.cycles_max, "latency_ms": self.latency_ms(),
                      "ops": len(self.ops), "not_simulated_ops": self.not_simulated},
            "arena_bytes": arena_bytes,
        }


_BITS = {"INT4": 4, "INT8": 8, "INT16": 16}


def op_types(model, op):
    """The op's activation type, with the weights' width when it differs (16x8: "int16x8",
    int4 weights: "int8x4"): the first non-constant input (else the output) and the first
    constant input of rank >= 2."""
    ins = [model.tensors[i] for i in op.inputs if i >= 0]
    act = next((t for t in ins if t.data is None), model.tensors[op.outputs[0]])
    weights = next((t for t in ins[1:] if t.data is not None and len(t.shape) >= 2), None)
    if weights is not None and weights.type != act.type and act.type in _BITS \
            and weights.type in _BITS:
        return f"int{_BITS[act.type]}x{_BITS[weights.type]}"
    return act.type.lower()


def random_inputs(model, seed=DEFAULT_SEED):
    """Seeded random inputs of each graph input's type and shape."""
    rng = np.random.default_rng(seed)
    out = []
    for t in model.input_tensors():
        dtype = np.dtype(t.dtype) if t.dtype is not None else None
        if dtype is not None and dtype.kind in "iu":
            info = np.iinfo(dtype)
            out.append(rng.integers(info.min, info.max, t.shape, dtype=dtype, endpoint=True))
        elif dtype is not None and dtype.kind == "f":
            out.append(rng.standard_normal(t.shape).astype(dtype))
        elif dtype is not None and dtype.kind == "b":
            out.append(rng.integers(0, 2, t.shape).astype(bool))
        else:
            raise ProfileError(f"model input {t.describe()} has type {t.type}")
    return out


def load_input(path, model):
    """Read an .npy input and check it against the model's (single) input tensor."""
    if not os.path.exists(path):
        raise ProfileError(f"{path}: no such file")
    try:
        x = np.load(path, allow_pickle=False)
    except Exception as e:
        raise ProfileError(f"{path}: not a readable .npy file ({type(e).__name__})") from None
    return check_inputs(model, [x], source=path)


def load_inputs(paths, model):
    """The model's inputs from `paths`: one .npz holding an array per graph input, keyed by
    the input tensor's name, or one .npy per graph input in the graph's order."""
    paths = list(paths)
    if len(paths) == 1 and str(paths[0]).endswith(".npz"):
        path = paths[0]
        if not os.path.exists(path):
            raise ProfileError(f"{path}: no such file")
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except Exception as e:
            raise ProfileError(f"{path}: not a readable .npz file ({type(e).__name__})") \
                from None
        names = [t.name for t in model.input_tensors()]
        missing = [n for n in names if n not in arrays]
        extra = sorted(set(arrays) - set(names))
        if missing or extra:
            raise ProfileError(f"{path}: holds {sorted(arrays)}, the model's inputs are "
                               f"{names}")
        return check_inputs(model, [arrays[n] for n in names], source=path)
    if len(paths) != len(model.inputs):
        raise ProfileError(f"{', '.join(map(str, paths))}: model has {len(model.inputs)} "
                           f"inputs ({', '.join(t.name for t in model.input_tensors())}), "
                           f"got {len(paths)} .npy files (or give one .npz keyed by name)")
    arrays = []
    for path, t in zip(paths, model.input_tensors()):
        if not os.path.exists(path):
            raise ProfileError(f"{path}: no such file")
        try:
            arrays.append(np.load(path, allow_pickle=False))
        except Exception as e:
            raise ProfileError(f"{path}: not a readable .npy file ({type(e).__name__})") \
                from None
    return check_inputs(model, arrays, source=", ".join(map(str, paths)))


def check_inputs(model, inputs, source="input"):
    tensors = model.input_tensors()
    if len(inputs) != len(tensors):
        raise ProfileError(f"{source}: model has {len(tensors)} inputs, got {len(inputs)}")
    out = []
    for x, t in zip(inputs, tensors):
        want = np.dtype(t.dtype)
        x = np.asarray(x)
        if x.dtype != want:
            raise ProfileError(f"{source}: dtype {x.dtype}, model input {t.describe()} is "
                               f"{want} {list(t.shape)}")
        if tuple(x.shape) != tuple(t.shape):
            raise ProfileError(f"{source}: shape {list(x.shape)}, model input {t.describe()} "
                               f"is {want} {list(t.shape)}")
        out.append(np.require(x, requirements="C"))   # ascontiguousarray makes rank 0 [1]
    return out


def run(model, build, clock_mhz=100.0, flash_wait_states=0, inputs=None, steps=None,
        progress=None, board=None):
    """Profile `model` (an `armsim.pipeline.model.Model`) on `build` (a `Build`); returns a
    `ModelProfile`.  `board` (an `armsim.data.boards.Configuration`) prices memory with the
    board's memory system (its core and clock are the build's core and `clock_mhz`)."""
    steps = steps if steps is not None else prepare_mod.prepare(model)
    inputs = random_inputs(model) if inputs is None else check_inputs(model, inputs)
    values = {}
    for t, x in zip(model.input_tensors(), inputs):
        values[t.index] = x
    ops = []
    memory_system = board.memory if board is not None else None
    pricing = memory.CornerPricing(memory_system.corners()) \
        if memory_system is not None else None
    seen = precompile.Seen(build)
    precompile.warm(model, steps, values, build, harness.run_step, seen)
    traced = memory_system.traced_regions() if memory_system is not None else ()
    with machine.recording_loads(traced) if traced else contextlib.nullcontext():
        for step in steps:
            ops.append(_profile_step(model, step, values, build, flash_wait_states,
                                     memory_system, pricing))
            if not step.host:
                seen.add(seen.key(step))
            if progress is not None:
                progress(step)
    outputs = [values[i] for i in model.outputs]
    return ModelProfile(model.name, build, clock_mhz, flash_wait_states, ops, outputs, board)


def _profile_step(model, step, values, build, flash_wait_states, memory_system, pricing=None):
    """Run one step, store its output in `values`, and price it (its `OpProfile`; with a
    board, also on each corner of its assumed figures, `pricing`, from the same counters
    and load trace)."""
    core = build.core
    m, names, chain, out = harness.run_step(step, values, build)
    if isinstance(out, list):                   # every output of an op TFLM computed
        for i, x in zip(step.outputs, out):
            values[i] = np.asarray(x).reshape(model.tensors[i].shape)
    else:
        values[step.output] = np.asarray(out).reshape(step.output_shape)
    corner_cycles = None
    if m is None:
        counts, fitted, cyc, bd, stages = {}, {}, 0, {}, {}
    else:
        counts, fitted = machine.counts(m), machine.fitted_counts(m)
        replays = pricing.memo() if pricing is not None else None
        bd = cores.breakdown(m, core, flash_wait_states=flash_wait_states,
                             region_names=names, memory_system=memory_system, memo=replays)
        cyc = bd["total"]
        stages = cores.stage_breakdown(m, core, flash_wait_states, names,
                                       memory_system=memory_system, total=cyc)
        if pricing is not None and len(pricing.corners) > 1:
            corner_cycles = cores.corner_cycles(m, names, pricing, cyc, replays)
    ref = step.reference_only or not build.cmsis_nn
    return OpProfile(step.index, step.op, " > ".join(chain), ref, step.output_shape,
                     step.macs, counts, cyc, m is not None, bd,
                     op_types(model, model.operators[step.index]), fitted, stages,
                     corner_cycles)


__all__ = ["run", "random_inputs", "load_input", "check_inputs", "ModelProfile", "OpProfile"]
