"""TFLite builtin operators, one module each (TFLM's ``Register_CONV_2D()`` is the model).

Each module in this package defines ``OPERATOR = Operator(...)``, the single record of the
op: the builtin name, the highest version its kernels implement and the version the
converter writes, how its options are read, its Prepare (kernel parameters as TFLM's
``*_common.cc`` derive them, returning a `common.Step`), the CMSIS-NN families and entry
point TFLM's Eval calls, the figures of TFLM's Eval glue, its persistent arena data and the
quantization spec's rules for it; the pipeline, `lint`, the arena, `insight` and `modelgen`
read it.  `registry()` is built from these modules; nothing else lists operators.  A module
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


#: `Operator.same_quantization` of an op whose every input keeps the output's quantization
EVERY_INPUT = "every input"


@dataclass(frozen=True)
class Weights:
    """A weighted op's rules in TFLite's int8 quantization spec (its operator table): where
    its weights, bias and input are, the filter dimension per-axis scales run along (TFLM's
    kConvQuantizedDimension / kDepthwiseConvQuantizedDimension), whether the spec wants them
    per axis (else per tensor), and whether CMSIS-NN's kernels take a weight zero point."""
    weights: int = 1
    bias: int = 2
    input: int = 0
    axis: int = 0
    per_axis: bool = True
    weight_offset: bool = False


def every_step(step):
    """`Operator.per_channel_data` of an op whose OpData always holds per-channel arrays."""
    return True


@dataclass(frozen=True)
class Operator:
    name: str                      # builtin name, e.g. "CONV_2D"
    max_version: int               # highest builtin version the kernels implement
    prepare: object                # prepare(model, op) -> common.Step (raises ModelError)
    options: str = None            # options table class in the schema (None: no options)
    option_fields: tuple = ()      # scalar option getters read from it
    option_lists: tuple = ()       # vector option getters (read as lists, [] when absent)
    cmsis_entry: str = None        # the CMSIS-NN function TFLM's Eval calls (None: the family's)
    wrapper: bool = False          # cmsis_entry dispatches among kernels (armsim why traces it)
    families: tuple = ()           # the CMSIS-NN families its steps run (kernels/families)
    glue: dict = field(default_factory=dict)   # "cmsis" / "reference" -> EvalGlue
    op_data: tuple = (0, 0, 0)     # arena bytes: builtin params, OpData (CMSIS-NN, reference)
    # step -> bool: its OpData also holds a multiplier and a shift per output channel
    per_channel_data: object = None
    run_reference: object = None   # reference-only ops: run(m, case, addr, tracer) -> chain
    run_host: object = None        # float ops computed on the host: run(case, x) -> output
    # the operand counts TFLM's Prepare accepts (TF_LITE_ENSURE on NumInputs / NumOutputs;
    # omitted optional inputs count); None: its Prepare does not check them
    input_counts: tuple = None
    output_counts: tuple = None
    # TFLite's int8 quantization spec (armsim lint): a weighted op's `Weights`; the
    # (scale, zero point) it fixes for an int8 output; the input positions that must keep
    # the output's scale and zero point (EVERY_INPUT: all of them)
    weights: Weights = None
    fixed_output: tuple = None
    same_quantization: object = ()
    # the version the TFLite converter gives an int8 model of the op (tensorflow/lite/tools/
    # versioning/op_version.cc): what the loader sees in converted models, what modelgen writes
    converter_version: int = 1
    # modelgen's layer: build(graph, *inputs, **options) -> the output tensor(s), called as
    # `Graph.<name in lower case>(...)` (ops without one are `Graph` methods)
    build: object = None


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
