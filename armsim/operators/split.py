"""SPLIT: TFLM's Register_SPLIT() (split.cc), the reference kernel on every path; one
output buffer per output.

Prepare requires the axis tensor (input 0) constant; Eval reads axis[0] as int32, adds the
input's rank to a negative axis and refuses one outside [0, rank); the input (input 1) is cut
along axis into NumOutputs() blocks of output 0's size (options.num_splits is not read).
armsim refuses what TFLM would read or write outside a tensor, or leave unwritten.
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     element_type, simulated_elem)

TYPES = ("FLOAT32", "INT8", "INT16", "INT32")     # SplitEval's switch (split.cc, split_v.cc)


def split_step(model, op, inp, axis_t, per_output_dims):
    """SPLIT / SPLIT_V after their operands are found: axis checks, copy sizes, the Step."""
    if axis_t.data is None:
        raise error(model, op, f"axis {axis_t.describe()} is not constant (TFLM requires it)")
    if axis_t.type != "INT32" or axis_t.size < 1:
        raise error(model, op, f"axis {axis_t.describe()} is {axis_t.type} of "
                               f"{axis_t.size} elements: TFLM reads one int32")
    rank = len(inp.shape)
    given = int(np.asarray(axis_t.data).ravel()[0])
    axis = given + rank if given < 0 else given
    if not 0 <= axis < rank:
        raise error(model, op, f"axis {given} out of range for rank {rank}")
    outs = [model.tensors[i] for i in op.outputs]
    if any(len(t.shape) != rank for t in outs):
        raise error(model, op, f"outputs {[list(t.shape) for t in outs]} are not of the "
                               f"input's rank {rank}")
    outer = int(np.prod(inp.shape[:axis], dtype=np.int64))
    inner = int(np.prod(inp.shape[axis + 1:], dtype=np.int64))
    dims = [int(t.shape[axis]) for t in outs] if per_output_dims else \
        [int(outs[0].shape[axis])] * len(outs)
    if sum(dims) > inp.shape[axis] or any(t.size != outer * d * inner
                                          for t, d in zip(outs, dims)):
        raise error(model, op, f"outputs {[list(t.shape) for t in outs]} do not split input "
                               f"{list(inp.shape)} on axis {axis}")
    if inp.type not in TYPES:
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's {op.op} takes "
                               f"{', '.join(TYPES)}")
    elem = simulated_elem(inp, outs, "input")
    if inp.constant:
        raise NotSimulated("a constant input: armsim's port takes activations")
    case = {"case": case_tag(model, op), "family": op.op.lower(), "rank": rank,
            "axis": axis, "outer": outer, "per_output_dims": per_output_dims,
            "copy_sizes": [d * inner for d in dims], "elem": elem}
    return Step(op.index, op.op, op.op.lower(), case, {"input": inp.index}, outs[0].index,
                outs[0].shape, reference_only=True, outputs=list(op.outputs),
                output_counts=[t.size for t in outs], output_dtype=element_type(elem))


def prepare(model, op):
    axis_t, inp = input_tensor(model, op, 0, "axis"), input_tensor(model, op, 1, "input")
    return split_step(model, op, inp, axis_t, False)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import split
    return split.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="SPLIT", max_version=4, prepare=prepare,
    options="SplitOptions", option_fields=("NumSplits",),
    # SplitEval: GetEvalInput (axis, input), the axis checks, the type switch (SplitImpl's
    # GetEvalOutput calls are in the port); body an estimate
    glue={"reference": EvalGlue((14, 14), (2, 0, 0, 0))},
    op_data=(4, 0, 0),         # TfLiteSplitParams {num_splits}
    run_reference=run_reference,
)
