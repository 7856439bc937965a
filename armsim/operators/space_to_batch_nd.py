"""SPACE_TO_BATCH_ND: TFLM's Register_SPACE_TO_BATCH_ND() (space_to_batch_nd.cc), the
reference kernel on every path; Prepare and the checks as BATCH_TO_SPACE_ND
(armsim.operators.batch_to_space_nd).  Its Init allocates a SpaceToBatchParams
{output_offset} that nothing writes: the padding value (armsim.kernels.tflm.batch_space).
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.batch_to_space_nd import batch_space_step, run_reference


def prepare(model, op):
    return batch_space_step(model, op, True)


OPERATOR = Operator(
    name="SPACE_TO_BATCH_ND", max_version=2, prepare=prepare,
    input_counts=(3,), output_counts=(1,),
    # SpaceToBatchNDEval: user_data, four GetEvalInput/Output, the type switch, four
    # GetTensorShape (an estimate)
    glue={"reference": EvalGlue((13, 13), (3, 1, 4, 0))},
    op_data=(0, 4, 4),         # SpaceToBatchParams {int32 output_offset}, persistent
    run_reference=run_reference,
    same_quantization=(0,),
)
