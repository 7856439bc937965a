"""SHAPE: TFLM's Register_SHAPE() (shape.cc), the reference kernel on every path; int32
output.

Prepare checks one input and one output; Eval refuses an output that is not int32 (the
options' out_type is not read) and writes the input's dims.  The input's data is not read.
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import NotSimulated, Step, case_tag, error, input_tensor

MAX_RANK = 6      # the kernel port's dims arguments (TFLM's RuntimeShape keeps 6 inline)


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    if out.type != "INT32":
        raise error(model, op, f"output {out.describe()} is {out.type}: TFLM's SHAPE writes "
                               f"int32 only")
    rank = len(inp.shape)
    if out.size != rank:
        raise error(model, op, f"output {out.describe()} has {out.size} elements for the "
                               f"input's {rank} dims")
    if rank > MAX_RANK:
        raise NotSimulated(f"input rank {rank}: armsim's port takes up to {MAX_RANK}")
    case = {"case": case_tag(model, op), "family": "shape",
            "dims": [int(d) for d in inp.shape]}
    return Step(op.index, op.op, "shape", case, {"inputs": []}, out.index, out.shape,
                reference_only=True, output_dtype="int32")


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import shape
    return shape.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="SHAPE", max_version=1, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # shape.cc ShapePrepare
    options="ShapeOptions", option_fields=("OutType",),
    # ShapeEval: GetEvalInput, GetEvalOutput; its body (the type test is in the port) is
    # an estimate
    glue={"reference": EvalGlue((6, 6), (1, 1, 0, 0))},
    op_data=(0, 0, 0),         # TfLiteShapeParams is not allocated by TFLM's parser
    run_reference=run_reference,
)
