"""L2_NORMALIZATION: TFLM's Register_L2_NORMALIZATION() (l2norm.cc), int8, the reference
kernel reference_integer_ops::L2Normalization on every path (kernels/tflm/l2norm.py).

L2NormPrepare: one input and output, rank <= 4, output INT8 (or FLOAT32: left to TFLM on the
host) of the input's type, fused activation NONE; it stores the input zero point and checks
nothing about the output's quantization -- the kernel writes 1/128-scale values (zero point
0) whatever the tensor says, and armsim does the same.  Eval: depth = the last dim (the
output's must match: armsim refuses other shapes, TFLM only DCHECKs), outer_size the rest.
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, fused_activation,
                                     input_tensor, tensor_zero_point)


def prepare(model, op):
    inp, out = input_tensor(model, op, 0, "input"), model.tensors[op.outputs[0]]
    if len(inp.shape) > 4:
        raise error(model, op, f"input {inp.describe()} has {len(inp.shape)} dimensions: "
                               f"TFLM's Prepare takes at most 4")
    if out.type not in ("INT8", "FLOAT32"):
        raise error(model, op, f"output {out.describe()} is {out.type}: TFLM's Prepare takes "
                               f"INT8 or FLOAT32")
    if inp.type != out.type:
        raise error(model, op, f"input {inp.describe()} is {inp.type} but output "
                               f"{out.describe()} is {out.type}: TFLM's Prepare requires one "
                               f"type")
    activation = fused_activation(op.options["FusedActivationFunction"])
    if activation != "NONE":
        raise error(model, op, f"fused activation {activation}: TFLM's Prepare requires NONE")
    if out.type == "FLOAT32":
        raise NotSimulated("FLOAT32: armsim simulates the int8 kernel")
    if not len(inp.scale):
        raise error(model, op, f"input {inp.describe()} has no quantization parameters")
    if not inp.shape or tuple(inp.shape) != tuple(out.shape):
        raise error(model, op, f"input shape {list(inp.shape)}, output {list(out.shape)}: "
                               f"TFLM's kernel needs one shape of rank >= 1 (it only "
                               f"DCHECKs it)")
    depth = int(inp.shape[-1])
    case = {"case": case_tag(model, op), "family": "l2norm",
            "input_zero_point": tensor_zero_point(inp), "depth": depth,
            "outer_size": int(inp.size) // depth if depth else 0}
    return Step(op.index, op.op, "l2norm", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import l2norm
    return l2norm.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="L2_NORMALIZATION", max_version=2, prepare=prepare,
    input_counts=(1,), output_counts=(1,),     # L2NormPrepare's TF_LITE_ENSURE_EQs
    options="L2NormOptions", option_fields=("FusedActivationFunction",),
    # L2NormEval: one input, one output, two GetTensorShape, MatchingDim and
    # MatchingFlatSizeSkipDim (an estimate of its own body)
    glue={"reference": EvalGlue((30, 30), (1, 1, 2, 0))},
    op_data=(4, 4, 4),         # TfLiteL2NormParams; L2NormalizationParams (input_zero_point)
    run_reference=run_reference,
)
