"""TFLite builtin operators, one module each (TFLM's ``Register_CONV_2D()`` is the model).

Each module in this package defines ``OPERATOR = Operator(...)``: the builtin name and the
highest version its kernels implement, how its options are read, its Prepare (kernel
parameters as TFLM's ``*_common.cc`` derive them, returning a `common.Step`), the CMSIS-NN
entry point TFLM's Eval calls, the figures of TFLM's Eval glue, and its persistent arena
data.  `registry()` is built from these modules; nothing else lists operators.  A module
is named after its builtin in lower case (`get` relies on it; tests check it).  Adding an
operator touches its module here, its kernel files and its tests (docs/design.md).
"""
import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass, field


@dataclass(frozen=True)
class EvalGlue:
    """TFLM's Eval glue around the kernel (armsim.kernels.tflm.eval_glue runs it).

    `body`: instructions of the Eval functions' own bodies (M4 build, M3 build); `calls`:
    (eval inputs, eval outputs, GetTensorShape calls, scratch-buffer lookups);
    `shapes_per_input`: an Eval that builds one shape per input (CONCATENATION)."""
    body: tuple = (0, 0)
    calls: tuple = (0, 0, 0, 0)
    shapes_per_input: bool = False


@dataclass(frozen=True)
class Operator:
    name: str                      # builtin name, e.g. "CONV_2D"
    max_version: int               # highest builtin version the kernels implement
    prepare: object                # prepare(model, op) -> common.Step (raises ModelError)
    options: str = None            # options table class in the schema (None: no options)
    option_fields: tuple = ()      # scalar option getters read from it
    option_lists: tuple = ()       # vector option getters (read as lists, [] when absent)
    cmsis_entry: str = None        # the CMSIS-NN function TFLM's Eval calls (None: the family's)
    glue: dict = field(default_factory=dict)   # "cmsis" / "reference" -> EvalGlue
    op_data: tuple = (0, 0, 0)     # arena bytes: builtin params, OpData (CMSIS-NN, reference)
    run_reference: object = None   # reference-only ops: run(m, case, addr, tracer) -> chain
    run_host: object = None        # float ops computed on the host: run(case, x) -> output
    # the operand counts TFLM's Prepare accepts (TF_LITE_ENSURE on NumInputs / NumOutputs;
    # omitted optional inputs count); None: its Prepare does not check them
    input_counts: tuple = None
    output_counts: tuple = None


_REGISTRY = None


def registry():
    """builtin name -> Operator, from every module of this package."""
    global _REGISTRY
    if _REGISTRY is None:
        found = {}
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_") or info.name == "common":
                continue
            op = importlib.import_module(f"{__name__}.{info.name}").OPERATOR
            found[op.name] = op
        _REGISTRY = dict(sorted(found.items()))
    return _REGISTRY


_BY_NAME = {}


def get(name):
    """The Operator named `name` (its module is `name` in lower case), or None if armsim has
    no module for it.  Imports that module only: a model's run loads the operators it uses."""
    if name not in _BY_NAME:
        module = name.lower()
        try:
            found = importlib.util.find_spec(f"{__name__}.{module}") is not None
        except ValueError:
            found = False
        _BY_NAME[name] = importlib.import_module(f"{__name__}.{module}").OPERATOR \
            if found and not module.startswith("_") and module != "common" else None
    return _BY_NAME[name]
