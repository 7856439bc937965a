"""ARG_MAX: TFLM's Register_ARG_MAX() (arg_min_max.cc: no Prepare; Eval takes an int32
axis, an int32 output and float32 or int8 input), the reference kernel on every path.
ARG_MIN shares the case layout."""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import NotSimulated, Step, case_tag, error, input_tensor


def arg_step(model, op, is_max):
    """The Step of ARG_MAX (`is_max`) or ARG_MIN after the checks TFLM's Eval makes."""
    inp, axis_t = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "axis")
    out = model.tensors[op.outputs[0]]
    if axis_t.type != "INT32":
        raise error(model, op, f"axis {axis_t.describe()} is {axis_t.type}; TFLM takes int32")
    if out.type != "INT32":
        raise error(model, op, f"output {out.describe()} is {out.type}; TFLM writes int32 "
                               f"only")
    if inp.type not in ("FLOAT32", "INT8"):
        raise error(model, op, f"input {inp.describe()} is {inp.type}; TFLM takes float32 "
                               f"and int8")
    if axis_t.data is None or axis_t.size < 1:
        raise NotSimulated(f"axis {axis_t.describe()} is not a constant")
    rank = len(inp.shape)
    given = int(np.asarray(axis_t.data).ravel()[0])
    axis = given + rank if given < 0 else given
    if not 0 <= axis < rank:
        raise error(model, op, f"axis {given} out of range for rank {rank}")
    outer = int(np.prod(inp.shape[:axis], dtype=np.int64))
    inner = int(np.prod(inp.shape[axis + 1:], dtype=np.int64))
    if out.size != outer * inner:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, the "
                               f"reduction {outer * inner}")
    if inp.type != "INT8":
        raise NotSimulated(f"input {inp.describe()} is {inp.type}: armsim simulates int8")
    case = {"case": case_tag(model, op), "family": op.op.lower(), "is_max": int(is_max),
            "outer": outer, "axis_size": int(inp.shape[axis]), "inner": inner, "rank": rank,
            "axis": given}
    return Step(op.index, op.op, op.op.lower(), case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype="int32")


def prepare(model, op):
    return arg_step(model, op, True)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import arg_min_max
    return arg_min_max.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="ARG_MAX", max_version=3, prepare=prepare,
    options="ArgMaxOptions", option_fields=("OutputType",),
    # Eval: two GetEvalInput, GetEvalOutput, the type tests, two GetTensorShape; body an
    # estimate
    glue={"reference": EvalGlue((14, 14), (2, 1, 2, 0))},
    op_data=(4, 0, 0),         # TfLiteArgMaxParams {output_type}
    run_reference=run_reference,
)
