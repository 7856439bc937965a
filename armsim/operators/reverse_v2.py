"""REVERSE_V2: TFLM's Register_REVERSE_V2() (reverse.cc), the reference kernel on every path.

Prepare (ReverseV2Prepare): the axis tensor one-dimensional, int32, with no more elements
than the input has dimensions (at most 6), input and output of one type.  Eval
(ReverseV2Eval) reads the axes, adds the rank to a negative one, refuses one out of range,
sorts them and refuses axes that are not contiguous; armsim checks the same at Prepare,
with the axes constant.  The output keeps the input's shape and bytes (the quantization
spec: same scale and zero point).  int8 is simulated; TFLM's other types run on the host.
`build` writes the op into a modelgen graph (`Graph.reverse_v2(x, axes)`).
"""
import numpy as np
import tflite

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import NotSimulated, Step, case_tag, error, input_tensor

MAX_DIMENSIONS = 6          # RuntimeShape::kMaxSmallSize
TYPES = ("FLOAT32", "INT32", "UINT8", "INT8", "INT16", "INT64", "BOOL")


def prepare(model, op):
    inp, axis_t = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "axis")
    out = model.tensors[op.outputs[0]]
    rank = len(inp.shape)
    if len(axis_t.shape) != 1:
        raise error(model, op, f"axis {axis_t.describe()} has shape {list(axis_t.shape)}: "
                               f"TFLM takes one dimension")
    if rank > MAX_DIMENSIONS or axis_t.size > rank:
        raise error(model, op, f"input {inp.describe()} has rank {rank}, axis {axis_t.size} "
                               f"elements: TFLM takes rank <= {MAX_DIMENSIONS} and no more "
                               f"axes than dimensions")
    if inp.type not in TYPES:
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's REVERSE_V2 "
                               f"takes {', '.join(t.lower() for t in TYPES)}")
    if axis_t.type != "INT32":
        raise error(model, op, f"axis {axis_t.describe()} is {axis_t.type}; TFLM takes INT32")
    if out.type != inp.type or tuple(out.shape) != tuple(inp.shape):
        raise error(model, op, f"output {out.describe()} is {out.type} {list(out.shape)}; "
                               f"TFLM writes the input's {inp.type} {list(inp.shape)}")
    if axis_t.data is None:
        raise NotSimulated(f"axis {axis_t.describe()} is not constant: armsim reads the axes "
                           f"at Prepare")
    if axis_t.size == 0:
        raise error(model, op, f"axis {axis_t.describe()} is empty: TFLM's Reverse reads "
                               f"axes[-1]")
    given = [int(a) for a in np.asarray(axis_t.data).ravel()]
    axes = sorted(a + rank if a < 0 else a for a in given)
    if not all(0 <= a < rank for a in axes):
        raise error(model, op, f"axes {given} out of range for rank {rank}")
    if any(b != a + 1 for a, b in zip(axes, axes[1:])):
        raise error(model, op, f"axes {given} are not contiguous (TFLM: \"Non-contiguous "
                               f"`axes` not supported\")")
    if inp.type != "INT8":
        raise NotSimulated(f"input {inp.describe()} is {inp.type}: armsim simulates int8")
    case = {"case": case_tag(model, op), "family": "reverse_v2",
            "shape": [int(d) for d in inp.shape], "axes": axes}
    return Step(op.index, op.op, "reverse_v2", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True)


def build(g, x, axes, axis_type="int32", name=None):
    """modelgen's `Graph.reverse_v2`: `x` reversed along the constant `axes`."""
    name = name or f"reverse_v2_{len(g.ops)}"
    axis = g.tensor((len(axes),), axis_type, data=np.array(axes), name=f"{name}_axes")
    y = g.tensor(g.shape(x), g.tensors[x].dtype, *g.quant(x), name=name)
    return g._op(tflite.BuiltinOperator.REVERSE_V2, [x, axis], [y])


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import reverse
    return reverse.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="REVERSE_V2", max_version=3, prepare=prepare,
    input_counts=(2,), output_counts=(1,),   # reverse.cc ReverseV2Prepare
    # ReverseV2Eval's own instructions on the int8 path with one axis, read off its
    # disassembly (gcc 12.2 -O2, tools/measure's ref_O2 flags): two GetEvalInput, one
    # GetEvalOutput, two GetTensorShape; ElementCount, the axes' memcpy and newlib's qsort
    # are not counted
    glue={"reference": EvalGlue((69, 69), (2, 1, 2, 0))},
    op_data=(0, 0, 0),         # no OpData, no builtin params
    run_reference=run_reference,
    same_quantization=(0,),    # the spec: restrict_same_input_output_scale
    converter_version=3,       # op_version.cc: int8 input
    build=build,
)
