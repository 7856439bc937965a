"""MINIMUM: TFLM's Register_MINIMUM() (cmsis_nn/maximum_minimum.cc EvalMinimum ->
arm_minimum_s8; reference MaximumMinimumBroadcastSlow with MinimumOp); as MAXIMUM
(operators/maximum.py)."""
from armsim.operators import Operator
from armsim.operators.maximum import GLUE, prepare_max_min, run_reference


def prepare(model, op):
    return prepare_max_min(model, op, "minimum")


OPERATOR = Operator(
    name="MINIMUM", max_version=4, prepare=prepare,
    cmsis_entry="arm_minimum_s8", glue=GLUE,
    op_data=(0, 0, 0),
    run_reference=run_reference,
    families=("minimum",),
    same_quantization=(0, 1),
    converter_version=2,
)
