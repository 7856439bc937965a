"""Which firmware a run models: parsed once at the edge (the command line's options, the
API's arguments) and passed down alone; every run below takes its machine from it.

The three paths are three builds of the same model (../shared/models/README.md):

| path        | kernels                               | target (gcc -mcpu)          | newlib multilib  | measured build |
|-------------|---------------------------------------|-----------------------------|------------------|----------------|
| `simd`      | CMSIS-NN with ARM_MATH_DSP             | Cortex-M4 (ARMv7E-M, DSP)   | thumb/v7e-m/nofp | `dsp_O2`       |
| `scalar`    | CMSIS-NN plain C                      | Cortex-M3 (ARMv7-M)         | thumb/v7-m/nofp  | `scalar_O2`    |
| `reference` | TFLM reference kernels                | Cortex-M4 (ARMv7E-M, DSP)   | thumb/v7e-m/nofp | (models only)  |

CMSIS-NN defines ARM_MATH_DSP exactly when the target has the DSP extension, so one fact,
`dsp_extension`, selects both CMSIS-NN's SIMD code and newlib's ARMv7E-M memcpy/memset;
the machine carries it as `Machine.dsp`.  `core` chooses the cycle table only: `cortex-m55`
prices this DSP build, not the MVE (Helium) kernels real M55 firmware runs.
"""
from dataclasses import dataclass

from armsim.cpu import cores, machine
from armsim.errors import BuildError

PATHS = ("simd", "scalar", "reference")
TOOLCHAINS = ("gcc", "armclang")


@dataclass(frozen=True)
class Build:
    path: str = "simd"
    toolchain: str = "gcc"
    core: str = "cortex-m4"
    single_rounding: bool = False   # CMSIS-NN built with CMSIS_NN_USE_SINGLE_ROUNDING

    def __post_init__(self):
        if self.path not in PATHS:
            raise BuildError(f"unknown path {self.path!r} (choose from {', '.join(PATHS)})")
        if self.single_rounding and not self.cmsis_nn:
            raise BuildError("CMSIS_NN_USE_SINGLE_ROUNDING is a CMSIS-NN build option: the "
                             "reference path runs TFLM's kernels (their TFLITE_SINGLE_ROUNDING "
                             "is not modelled)")
        if self.toolchain not in TOOLCHAINS:
            raise BuildError(f"unknown toolchain {self.toolchain!r} "
                             f"(choose from {', '.join(TOOLCHAINS)})")
        try:
            cores.core(self.core)
        except ValueError as e:
            raise BuildError(str(e)) from None

    def machine(self, memory, runs_cmsis_nn=True):
        """A fresh machine of this build over `memory` (a `cpu.machine.Memory`): the one
        place a run gets its machine.  `runs_cmsis_nn`: the code is CMSIS-NN's, which
        CMSIS_NN_USE_SINGLE_ROUNDING changes (TFLM's reference kernels, run on every path by
        the reference-only ops, are not)."""
        return machine.build(memory, dsp=self.dsp_extension, armclang=self.armclang,
                             single_rounding=self.single_rounding and runs_cmsis_nn)

    @property
    def cmsis_nn(self):
        """The op runs CMSIS-NN kernels (else TFLM's reference kernels)."""
        return self.path != "reference"

    @property
    def dsp_extension(self):
        """The target is ARMv7E-M (Cortex-M4): ARM_MATH_DSP and newlib's v7e-m multilib."""
        return self.path != "scalar"

    @property
    def armclang(self):
        return self.toolchain == "armclang"

    @property
    def multilib(self):
        return "thumb/v7e-m/nofp" if self.dsp_extension else "thumb/v7-m/nofp"

    @property
    def measured_build(self):
        """The build of ../shared/reference/*.json `measured` this path corresponds to."""
        return {"simd": "dsp_O2", "scalar": "scalar_O2"}.get(self.path)

    @property
    def kernels(self):
        return {"simd": "CMSIS-NN DSP build (ARM_MATH_DSP)",
                "scalar": "CMSIS-NN plain-C build (Cortex-M3 code)",
                "reference": "TFLM reference kernels (Cortex-M4 code)"}[self.path]

    def describe(self):
        """Which build the cycles describe, for every table, JSON and report."""
        kernels = self.kernels + (", CMSIS_NN_USE_SINGLE_ROUNDING" if self.single_rounding else "")
        text = f"{kernels}, {self.toolchain}, priced on {self.core}"
        if self.core in ("cortex-m55", "cortex-m85"):
            text += (f"; real {self.core} firmware runs CMSIS-NN's MVE (Helium) kernels, "
                     f"which armsim does not simulate")
        return text
