"""One module per family: a case in the CMSIS-NN vectors' JSON schema run on a machine.

A family module is named after the family (the case's `family` field) and has FUNCTIONS
(the CMSIS-NN entry points, the wrapper first), buffer_size, run_cmsis, run_reference (the
TFLM port) and ORACLE (numpy), and where it differs from the defaults of
`armsim.pipeline.harness`: ARRAYS (case field -> (region, dtype) of the arrays it places;
`case_arrays(case)` where they depend on the case, e.g. an int32 or int64 bias),
OUTPUT_DTYPE, output_count, reference_buffer_size (the scratch bytes TFLM's reference
Prepare requests), derived_arrays(case) -> {name: (region, array)} (arrays computed from the
case, such as the sums TFLM's Prepare precomputes, and tables of the library the kernels
read).  The list of families is this directory's modules: nothing else names them.
"""
import importlib
import pkgutil

import numpy as np

from armsim.errors import CaseError

FAMILIES = tuple(sorted(i.name for i in pkgutil.iter_modules(__path__)))


def family(name):
    """The module of family `name` (CaseError naming the known ones otherwise)."""
    if name not in FAMILIES:
        raise CaseError(f"unknown family {name!r} (known: {', '.join(FAMILIES)})")
    return importlib.import_module(f"{__name__}.{name}")


def output_dtype(module):
    """The element type of a family's output (int16 for the 16x8 families)."""
    return np.dtype(getattr(module, "OUTPUT_DTYPE", np.int8))


def oracle(case):
    """The output of `case` (flat, in the output tensor's layout and the family's output
    type) as its family's independent numpy ORACLE computes it."""
    module = family(case.get("family"))
    return np.asarray(module.ORACLE(case), output_dtype(module)).ravel()
