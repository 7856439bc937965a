"""SQUEEZE: TFLM's Register_SQUEEZE(): RESHAPE's copy (reshape.cc's Eval), the reference
kernel on every path."""
from armsim.operators import Operator
from armsim.operators import reshape

OPERATOR = Operator(
    name="SQUEEZE", max_version=2, prepare=reshape.prepare,
    input_counts=(1,), output_counts=(1,),   # squeeze.cc SqueezePrepare
    options="SqueezeOptions", option_lists=("SqueezeDims",),
    glue=reshape.OPERATOR.glue,
    op_data=(40, 0, 0),        # TfLiteSqueezeParams
    run_reference=reshape.run_reference,
    same_quantization=(0,),
)
