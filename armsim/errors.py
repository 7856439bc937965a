"""Every error armsim reports to its user: one line, naming the file, op, tensor or case.

A leaf: any layer raises these without importing another layer.  They are ValueErrors, so
a caller that only knows "bad input" catches them all.  (The machine's own `MemoryFault`, a
simulated HardFault, stays with the machine in `armsim.cpu.machine`.)
"""


class ModelError(ValueError):
    """A model armsim cannot run; the message is one line naming file and op/tensor."""


class NotSimulated(Exception):
    """An op TFLM runs whose variant armsim has no kernel port for (a broadcast ADD, int16
    activations): TFLM computes it on the host (armsim.pipeline.tflm_host), marked not simulated."""


class CaseError(ValueError):
    """A case that cannot run: unknown family or path, missing or inconsistent fields."""


class BuildError(ValueError):
    """An unknown path or toolchain."""


class ProfileError(ValueError):
    """Input that does not fit the model, or a kernel that cannot run an op."""


class ModelGenError(ValueError):
    """An impossible layer (shape mismatch, bad option)."""


class ExplainError(ValueError):
    """Unknown instruction or an operand the instruction does not take."""


class ReportError(ValueError):
    """A report that cannot be rendered from the data given."""


class TraceError(ValueError):
    """A kernel, case or op `armsim trace` cannot trace, or values it does not take."""
