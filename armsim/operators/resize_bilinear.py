"""RESIZE_BILINEAR: TFLM's Register_RESIZE_BILINEAR() (resize_bilinear.cc), the reference
kernel (ResizeBilinearInteger for int8) on every path.

Prepare: two inputs, one output, a 4-D input, a constant 1-D int32 size (the kernel reads
its first two values: output height, width), half_pixel_centers and align_corners not both
set; the output takes the input's type.  Eval runs float32 and int8 (armsim simulates
int8) and refuses other types.  The output's shape is checked as for
RESIZE_NEAREST_NEIGHBOR (armsim.operators.resize_nearest_neighbor.resize_step).
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.resize_nearest_neighbor import resize_step, run_reference


def prepare(model, op):
    return resize_step(model, op, "resize_bilinear")


OPERATOR = Operator(
    name="RESIZE_BILINEAR", max_version=4, prepare=prepare,
    input_counts=(2,), output_counts=(1,),
    options="ResizeBilinearOptions", option_fields=("AlignCorners", "HalfPixelCenters"),
    # ResizeBilinearEval: builtin_data, three GetEvalInput/Output, the type switch, the
    # params copy, three GetTensorShape (an estimate)
    glue={"reference": EvalGlue((14, 14), (2, 1, 3, 0))},
    op_data=(4, 0, 0),         # TfLiteResizeBilinearParams {bool, bool}
    run_reference=run_reference,
    same_quantization=(0,),
)
