"""FILL: TFLM's Register_FILL() (fill.cc), the reference kernel on every path.

Prepare: the value a scalar (rank 0) of the output's type, the dims tensor constant, rank 1,
of int8/int16/int32/int64, equal to the output's dims; Eval for float32, int32 and int8.  A
constant value is held in the case; a computed one is read from its SRAM buffer.
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import NotSimulated, Step, case_tag, error, input_tensor


def prepare(model, op):
    dims, value = input_tensor(model, op, 0, "dims"), input_tensor(model, op, 1, "value")
    out = model.tensors[op.outputs[0]]
    if len(value.shape) != 0:
        raise error(model, op, f"value {value.describe()} has shape {list(value.shape)}; "
                               f"TFLM takes a scalar")
    if value.type != out.type:
        raise error(model, op, f"value {value.type}, output {out.type}: TFLM requires equal")
    if dims.data is None:
        raise error(model, op, f"dims {dims.describe()} is not constant (TFLM requires it)")
    if len(dims.shape) != 1 or dims.type not in ("INT8", "INT16", "INT32", "INT64"):
        raise error(model, op, f"dims {dims.describe()} must be a vector of int8/16/32/64")
    if [int(v) for v in np.asarray(dims.data).ravel()] != [int(d) for d in out.shape]:
        raise error(model, op, f"dims {np.asarray(dims.data).ravel().tolist()} differ from "
                               f"output {list(out.shape)}")
    if out.type not in ("FLOAT32", "INT32", "INT8"):
        raise error(model, op, f"output {out.describe()} is {out.type}: TFLM's FILL takes "
                               f"float32, int32 and int8")
    if out.type != "INT8":
        raise NotSimulated(f"output {out.describe()} is {out.type}: armsim simulates int8")
    case = {"case": case_tag(model, op), "family": "fill", "rank": len(out.shape),
            "size": int(out.size)}
    if value.constant:
        case["value"] = int(np.asarray(value.data).ravel()[0])
        inputs = {"inputs": []}
    else:
        inputs = {"inputs": [value.index]}
    return Step(op.index, op.op, "fill", case, inputs, out.index, out.shape, reference_only=True)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import fill
    return fill.run_fill(m, case, addr, tracer)


OPERATOR = Operator(
    name="FILL", max_version=4, prepare=prepare,
    # FillEval: GetEvalInput, GetEvalOutput, the type switch, two GetTensorShape; body an
    # estimate
    glue={"reference": EvalGlue((8, 8), (1, 1, 2, 0))},
    op_data=(0, 0, 0),
    run_reference=run_reference,
)
