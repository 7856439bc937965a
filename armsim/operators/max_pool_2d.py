"""MAX_POOL_2D: TFLM's Register_MAX_POOL_2D() (cmsis_nn/pooling.cc MaxEval, pooling.cc),
Prepare as pooling_common.cc."""
from armsim.operators import EvalGlue, Operator
from armsim.operators._pooling import POOL_FIELDS, POOL_OPTIONS, prepare_pool


def prepare(model, op):
    return prepare_pool(model, op, "maxpool", "arm_max_pool_s16")


OPERATOR = Operator(
    name="MAX_POOL_2D", max_version=3, prepare=prepare,
    options=POOL_OPTIONS, option_fields=POOL_FIELDS,
    glue={"cmsis": EvalGlue((28 + 78, 29 + 71), (1, 1, 2, 0)),   # (AverageEval's structure)
          "reference": EvalGlue((0, 0), (1, 1, 2, 0))},
    op_data=(28, 48, 44),      # TfLitePoolParams; OpDataPooling
    families=("maxpool", "maxpool_s16"),
    same_quantization=(0,),
    converter_version=2,
)
