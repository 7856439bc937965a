"""SPACE_TO_DEPTH: TFLM's Register_SPACE_TO_DEPTH() (space_to_depth.cc), the reference kernel
on every path.

Prepare: one input, one output, rank 4, float32 or int8 output of the input's type, height
and width multiples of block_size (which TFLM does not check for > 0: armsim refuses it);
the output's dims are rewritten to (n, h / bs, w / bs, c * bs^2).
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.depth_to_space import depth_space_step, run_reference


def prepare(model, op):
    return depth_space_step(model, op, False)


OPERATOR = Operator(
    name="SPACE_TO_DEPTH", max_version=2, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # space_to_depth.cc Prepare
    options="SpaceToDepthOptions", option_fields=("BlockSize",),
    # Eval: builtin_data, GetEvalInput, GetEvalOutput, the type switch, two GetTensorShape;
    # body an estimate
    glue={"reference": EvalGlue((16, 16), (1, 1, 2, 0))},
    op_data=(4, 0, 0),         # TfLiteSpaceToDepthParams {block_size}
    run_reference=run_reference,
    same_quantization=(0,),
)
