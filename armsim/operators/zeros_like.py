"""ZEROS_LIKE: TFLM's Register_ZEROS_LIKE() (zeros_like.cc), the reference kernel on every
path: one input, one output of the input's type; int64, int32, int8 and float32 Eval."""
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import NotSimulated, Step, case_tag, error, input_tensor


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    if inp.type not in ("INT64", "INT32", "INT8", "FLOAT32"):
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's ZEROS_LIKE "
                               f"takes int64, int32, int8 and float32")
    if out.type != inp.type:
        raise error(model, op, f"output {out.describe()} is {out.type}; TFLM makes it the "
                               f"input's {inp.type}")
    if out.size != inp.size:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, input "
                               f"{inp.size}")
    if inp.type != "INT8":
        raise NotSimulated(f"input {inp.describe()} is {inp.type}: armsim simulates int8")
    case = {"case": case_tag(model, op), "family": "zeros_like", "rank": len(inp.shape),
            "size": int(inp.size)}
    return Step(op.index, op.op, "zeros_like", case, {"inputs": []}, out.index, out.shape,
                reference_only=True)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import fill
    return fill.run_zeros_like(m, case, addr, tracer)


OPERATOR = Operator(
    name="ZEROS_LIKE", max_version=1, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # zeros_like.cc ZerosLikePrepare
    # ZerosLikeEval: GetEvalInput, GetEvalOutput, two GetTensorShape, the type switch; body
    # an estimate
    glue={"reference": EvalGlue((8, 8), (1, 1, 2, 0))},
    op_data=(0, 0, 0),
    run_reference=run_reference,
)
