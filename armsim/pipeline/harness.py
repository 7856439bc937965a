"""Run one op described in the CMSIS-NN vectors' JSON schema on a fresh machine.

The schema (../shared/cmsis_nn_vectors/README.md) is the single interface between the
model layer, the `armsim kernel` command, the tests and the kernels: the model layer
derives such a case from a .tflite op, the vectors and measurements already are cases.

Memory layout, as on a TFLM target: constant data (weights, bias, per-channel multipliers
and shifts) in flash, activations and the kernel's scratch buffer in SRAM.

Paths: ``simd`` (CMSIS-NN built with ARM_MATH_DSP), ``scalar`` (CMSIS-NN plain C),
``reference`` (TensorFlow Lite Micro's reference kernels).  Each family module under
`armsim.kernels.families` runs the CMSIS-NN entry point; `armsim.kernels.tflm` runs the reference.
"""
from dataclasses import dataclass, field

import numpy as np

from armsim.pipeline.build import PATHS, TOOLCHAINS, Build  # noqa: F401 (re-used by the CLI)
from armsim.errors import BuildError, CaseError
from armsim.cpu import machine
from armsim.kernels.families import family, output_dtype

#: activations in SRAM, constant data (weights, bias, per-channel quantization) in flash
ARRAYS = {"input": ("sram", np.int8), "input2": ("sram", np.int8),
          "weights": ("flash", np.int8), "bias": ("flash", np.int32),
          "output_mult": ("flash", np.int32), "output_shift": ("flash", np.int32)}


@dataclass
class Result:
    case: str
    family: str
    path: str
    toolchain: str
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


def layout(case, scratch_bytes):
    """Place the case's arrays: returns (Memory, addresses by field name)."""
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 0).region("flash", machine.FLASH_BASE, 0)
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
    out_dtype = output_dtype(module)
    addr["output"] = mem.place("sram", output_count(case) * out_dtype.itemsize)
    addr["scratch"] = mem.place("sram", scratch_bytes) if scratch_bytes else 0
    addr["scratch_bytes"] = scratch_bytes
    return mem, addr


def run_case(case, build="simd", toolchain="gcc", function=None, tracer=None):
    """Run `case` on `build` (a `Build`, or a path name built with `toolchain`); `function`
    names the CMSIS-NN entry point (default: the wrapper the model layer would call).
    Returns a `Result`; raises CaseError."""
    try:
        build = Build.of(build, toolchain)
    except BuildError as e:
        raise CaseError(str(e)) from None
    module = family(case.get("family"))
    if build.cmsis_nn:
        scratch = module.buffer_size(case, build.dsp_extension, build.armclang)
    else:   # TFLM's reference Prepare may request a scratch buffer too
        scratch = getattr(module, "reference_buffer_size", lambda case: 0)(case)
    mem, addr = layout(case, scratch)
    m = machine.build(mem, dsp=build.dsp_extension, armclang=build.armclang,
                      single_rounding=build.single_rounding)
    try:
        if not build.cmsis_nn:
            chain = module.run_reference(m, case, addr, tracer)
        else:
            chain = module.run_cmsis(m, case, addr, function, tracer)
    except machine.MemoryFault as fault:
        raise machine.MemoryFault(machine.fault_message(m, mem.names)) from fault
    output = machine.read(m, addr["output"], output_count(case),
                          output_dtype(module))
    return Result(case.get("case", "?"), case["family"], build.path, build.toolchain, chain,
                  output, m,
                  list(mem.names), addr)
