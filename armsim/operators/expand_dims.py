"""EXPAND_DIMS: TFLM's Register_EXPAND_DIMS() (expand_dims.cc), the reference kernel on every
path.

Prepare (ExpandDimsPrepare / VerifyTensorDim): the axis tensor constant, int32, at most one
dimension; a negative axis counts from rank + 1; axis <= rank; the output's shape is the
input's with a 1 inserted at axis.  Eval copies the input's elements (int8 simulated; int16
and float32 left to TFLM on the host).
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     element_type, simulated_elem)


def prepare(model, op):
    inp, axis_t = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "axis")
    out = model.tensors[op.outputs[0]]
    if len(axis_t.shape) > 1:
        raise error(model, op, f"axis {axis_t.describe()} has shape {list(axis_t.shape)}: "
                               f"TFLM takes one element")
    if axis_t.type != "INT32":
        raise error(model, op, f"axis {axis_t.describe()} is {axis_t.type}; TFLM takes INT32")
    if axis_t.data is None:
        raise error(model, op, f"axis {axis_t.describe()} is not constant (TFLM requires it)")
    if axis_t.size < 1:
        raise error(model, op, f"axis {axis_t.describe()} is empty")
    rank = len(inp.shape)
    axis = int(np.asarray(axis_t.data).ravel()[0])
    if axis < 0:
        axis += rank + 1
    if not 0 <= axis <= rank:
        raise error(model, op, f"axis {int(np.asarray(axis_t.data).ravel()[0])} out of range "
                               f"for rank {rank}")
    expect = tuple(inp.shape[:axis]) + (1,) + tuple(inp.shape[axis:])
    if tuple(out.shape) != expect:
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, "
                               f"expanding {list(inp.shape)} at axis {axis} gives "
                               f"{list(expect)}")
    if inp.type not in ("INT8", "INT16", "FLOAT32"):
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's EXPAND_DIMS "
                               f"takes int8, int16 and float32")
    if out.type != inp.type:
        raise NotSimulated(f"output {out.describe()} is {out.type}, input {inp.type}")
    elem = simulated_elem(inp, [], "input")
    case = {"case": case_tag(model, op), "family": "expand_dims", "rank": rank,
            "size": int(inp.size), "elem": elem}
    return Step(op.index, op.op, "expand_dims", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import expand_dims
    return expand_dims.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="EXPAND_DIMS", max_version=1, prepare=prepare,
    input_counts=(2,), output_counts=(1,),   # expand_dims.cc ExpandDimsPrepare
    # ExpandDimsEval: GetEvalInput, GetEvalOutput and the type switch; its body size is not
    # measured: an estimate
    glue={"reference": EvalGlue((10, 10), (1, 1, 0, 0))},
    op_data=(0, 0, 0),         # no OpData, no builtin params
    run_reference=run_reference,
)
