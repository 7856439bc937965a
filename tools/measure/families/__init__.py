"""One module per kernel family: turns a case (the vectors' JSON schema) into a C harness.

Each module lists the `family` values it handles in FAMILIES and defines
``harness(case, function=None, also=None) -> cgen.Harness`` (see ``cgen.cmsis_harness``),
and, for the TFLM reference kernels of the families in REF_FAMILIES, ``ref_harness(case)``
(see ``cgen.tflm_op_harness``)."""
import importlib
import pkgutil

from ..cgen import CaseError


def _modules():
    for info in pkgutil.iter_modules(__path__):
        yield importlib.import_module(f"{__name__}.{info.name}")


def by_family():
    table = {}
    for mod in _modules():
        for fam in mod.FAMILIES:
            table[fam] = mod
    return table


def harness_for(case, function=None, also=None, reference=False):
    """The CMSIS-NN harness of the case, or (`reference`) the TFLM reference-kernel one."""
    table = by_family()
    fam = case.get("family")
    if fam not in table:
        raise CaseError(f"{case.get('case', '?')}: no harness for family {fam!r} "
                        f"(supported: {', '.join(sorted(table))})")
    if reference:
        if fam not in getattr(table[fam], "REF_FAMILIES", ()):
            raise CaseError(f"{case.get('case', '?')}: no TFLM reference harness for family {fam!r}")
        return table[fam].ref_harness(case)
    return table[fam].harness(case, function, also)
