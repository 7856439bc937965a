"""MEAN: TFLM's Register_MEAN() (reduce.cc: PrepareMeanOrSumHelper, EvalMeanHelper ->
EvalIntegerMean -> QuantizedMeanOrSum, compute_sum false), int8 and int16, any axes, the
reference kernel on every path (operators/_reduce.py, kernels/tflm/reduce.py)."""
from armsim.operators import Operator, _reduce


def prepare(model, op):
    return _reduce.reduce_step(model, op, "mean")


OPERATOR = Operator(
    name="MEAN", max_version=3, prepare=prepare,
    input_counts=_reduce.INPUT_COUNTS, output_counts=_reduce.OUTPUT_COUNTS,
    options=_reduce.OPTIONS, option_fields=_reduce.OPTION_FIELDS,
    glue=_reduce.GLUE, op_data=_reduce.OP_DATA, run_reference=_reduce.run_reference,
    converter_version=2,
)
