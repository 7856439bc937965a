"""The builds the tool measures, as data: compiler, flags, multilib and the emulated core.

One entry per build name.  The two gcc builds reproduce ../shared/reference exactly (its README
"Method"); a new build (e.g. an MVE one run on QEMU) is one more entry here plus, if it needs a
different emulator, one more runner in ``emulators.py``.
"""
import os
from dataclasses import dataclass

CMSIS_NN_COMMIT = "99f736a63036613032f9b70de36b493bcd7802d4"
TFLM_COMMIT = "90b983c2b3f1480642e040bbd2ddb37b998f3424"
CMSIS_NN_DIR = "/work/cache/cmsis-nn"
TFLM_DIR = "/work/cache/tflite-micro"
CACHE_DIR = os.environ.get("MEASURE_CACHE", "/work/cache/measure")   # compiled libraries
COMPILER_VERSION = "arm-none-eabi-gcc (15:12.2.rel1-1) 12.2.1 20221205"


@dataclass(frozen=True)
class Build:
    name: str
    mcpu: str
    opt: str
    multilib: str              # newlib/libgcc multilib directory the flags select
    emulator: str              # key of emulators.EMULATORS
    cpu_model: str             # the emulator's CPU model
    core_name: str             # for the `build` record, e.g. "Cortex-M4"
    path_summary: str          # "(DSP extension: ...)" part of build.summary
    language: str = "c"        # "c": CMSIS-NN (gcc); "c++": TFLM reference kernels (g++)
    extra_cflags: tuple = ()
    common_cflags: tuple = ("-mthumb", "-mfloat-abi=soft")
    section_flags: tuple = ("-ffunction-sections", "-fdata-sections")
    std: str = "-std=gnu11"
    warn_flags: tuple = ("-Wall", "-Wno-unused-variable")
    ldflags: tuple = ("-Wl,--gc-sections", "-nostartfiles")
    libs: tuple = ("-lc", "-lgcc")  # full newlib, not nano

    @property
    def compiler(self):
        return "arm-none-eabi-g++" if self.language == "c++" else "arm-none-eabi-gcc"

    @property
    def summary_compiler(self):
        return "arm-none-eabi-g++ 12.2.1" if self.language == "c++" else "arm-none-eabi-gcc 12.2.1"

    def cflags(self):
        """Code-generating flags in the order the reference records them."""
        return (f"-mcpu={self.mcpu}", *self.common_cflags, self.opt, *self.section_flags,
                self.std, *self.warn_flags, *self.extra_cflags)

    def cflags_record(self, include_note):
        return " ".join(self.cflags() + (include_note,))

    def record(self, commit_field, commit, include_note):
        """The `build` object of a measured entry (same keys as ../shared/reference)."""
        short = commit[:7]
        src = "CMSIS-NN" if self.language == "c" else "tflite-micro"
        return {
            "summary": f"{self.summary_compiler} -mcpu={self.mcpu} {self.opt} {self.path_summary}, "
                       f"{src} {short}, executed on an emulated {self.core_name}",
            "compiler": COMPILER_VERSION.replace("-gcc", "-g++") if self.language == "c++"
                        else COMPILER_VERSION,
            "mcpu": self.mcpu,
            "opt": self.opt,
            "cflags": self.cflags_record(include_note),
            commit_field: commit,
            "emulated_core": self.core_name,
        }


TFLM_CXXFLAGS = ("-fno-rtti", "-fno-exceptions", "-fno-threadsafe-statics", "-fno-unwind-tables",
                 "-fno-asynchronous-unwind-tables", "-fmessage-length=0",
                 "-DTF_LITE_STATIC_MEMORY", "-DTF_LITE_DISABLE_X86_NEON", "-DNDEBUG",
                 "-g")   # release_with_logs (see tflm.py); -g: source in the disassembly, no code change

BUILDS = {
    "dsp_O2": Build("dsp_O2", "cortex-m4", "-O2", "thumb/v7e-m/nofp", "unicorn", "cortex-m4",
                    "Cortex-M4", "(DSP extension: ARM_MATH_DSP SIMD path)"),
    "scalar_O2": Build("scalar_O2", "cortex-m3", "-O2", "thumb/v7-m/nofp", "unicorn", "cortex-m3",
                       "Cortex-M3", "(no DSP extension: plain-C path)"),
    # TFLM's reference kernels (armsim's `reference` path), as in ../shared/models/measured.json
    "ref_O2": Build("ref_O2", "cortex-m4", "-O2", "thumb/v7e-m/nofp", "unicorn", "cortex-m4",
                    "Cortex-M4", "(TFLM reference kernels)", language="c++", std="-std=c++17",
                    warn_flags=(), extra_cflags=TFLM_CXXFLAGS, libs=("-lm", "-lc", "-lgcc")),
}
