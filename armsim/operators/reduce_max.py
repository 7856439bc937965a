"""REDUCE_MAX: TFLM's Register_REDUCE_MAX() (reduce.cc: PrepareMinMaxHelper,
EvalMinMaxHelper -> ReduceGeneric<int8_t> with the max reducer), int8, any axes, input and
output quantization equal (its Eval's TF_LITE_ENSURE_EQs), the reference kernel on every
path (operators/_reduce.py, kernels/tflm/reduce.py)."""
from armsim.operators import Operator, _reduce


def prepare(model, op):
    return _reduce.reduce_step(model, op, "max")


OPERATOR = Operator(
    name="REDUCE_MAX", max_version=3, prepare=prepare,
    input_counts=_reduce.INPUT_COUNTS, output_counts=_reduce.OUTPUT_COUNTS,
    options=_reduce.OPTIONS, option_fields=_reduce.OPTION_FIELDS,
    glue=_reduce.GLUE_MAX, op_data=_reduce.OP_DATA, run_reference=_reduce.run_reference,
)
