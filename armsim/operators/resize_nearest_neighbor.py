"""RESIZE_NEAREST_NEIGHBOR: TFLM's Register_RESIZE_NEAREST_NEIGHBOR()
(resize_nearest_neighbor.cc), the reference kernel on every path.

Prepare: two inputs, one output, a 4-D input, a constant 1-D int32 size of 2 elements
(output height, width); the output takes the input's type.  Eval runs float32, int8 and
int16 (armsim simulates int8 and int16; RESIZE_BILINEAR's Eval takes float32 and int8).  TFLM never checks the output's shape against the size: its
kernel writes batches x size[0] x size[1] x depth elements, so armsim refuses an output of
another shape.  The size is read by the kernel: placed in flash.
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, element_type,
                                     require_int8, require_int8_or_int16)


def resize_step(model, op, family):
    """The Step of RESIZE_NEAREST_NEIGHBOR or RESIZE_BILINEAR (`family`) after their
    Prepares' checks (bilinear: any 1-D size of which the kernel reads the first two values,
    half_pixel_centers excludes align_corners, float32 or int8)."""
    inp, size = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "size")
    out = model.tensors[op.outputs[0]]
    if len(inp.shape) != 4:
        raise error(model, op, f"input {inp.describe()} has rank {len(inp.shape)}; TFLM "
                               f"takes 4")
    bilinear = family == "resize_bilinear"
    if len(size.shape) != 1 or size.type != "INT32" or (size.shape[0] != 2 and not bilinear):
        raise error(model, op, f"size {size.describe()} is {size.type} {list(size.shape)}; "
                               f"TFLM takes INT32 [2]")
    if size.data is None:
        raise error(model, op, f"size {size.describe()} is not constant: TFLM's Prepare "
                               f"refuses a non-constant size")
    if out.type != inp.type:
        raise error(model, op, f"output {out.describe()} is {out.type}, input {inp.type}: "
                               f"TFLM's Prepare makes the output the input's type")
    o = op.options
    if bilinear:
        if o["HalfPixelCenters"] and o["AlignCorners"]:
            raise error(model, op, "half_pixel_centers and align_corners both set: TFLM's "
                                   "Prepare refuses it")
        if size.shape[0] < 2:
            raise error(model, op, f"size {size.describe()} has {size.shape[0]} element: "
                                   f"TFLM's kernel reads two")
        if inp.type not in ("FLOAT32", "INT8"):
            raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's Eval takes "
                                   f"float32 or int8")
    if bilinear:
        require_int8(model, op, inp, "input")
        elem = 1
    else:
        elem = require_int8_or_int16(model, op, inp, "input")
    n, ih, iw, c = (int(d) for d in inp.shape)
    oh, ow = (int(v) for v in np.asarray(size.data).reshape(-1)[:2])
    if out.shape != (n, oh, ow, c):
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, the "
                               f"size {[oh, ow]} makes it {[n, oh, ow, c]}")
    case = {"case": case_tag(model, op), "family": family, "input_shape": [n, ih, iw, c],
            "size": [oh, ow], "align_corners": int(o["AlignCorners"]),
            "half_pixel_centers": int(o["HalfPixelCenters"]), "elem": elem}
    step = Step(op.index, op.op, family, case, {"inputs": [inp.index, size.index]}, out.index,
                out.shape, reference_only=True, output_dtype=element_type(elem))
    step.constants = {size.index: np.ascontiguousarray(size.data)}
    return step


def prepare(model, op):
    return resize_step(model, op, "resize_nearest_neighbor")


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import resize
    return resize.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="RESIZE_NEAREST_NEIGHBOR", max_version=4, prepare=prepare,
    input_counts=(2,), output_counts=(1,),
    options="ResizeNearestNeighborOptions", option_fields=("AlignCorners", "HalfPixelCenters"),
    # ResizeNearestNeighborEval: builtin_data, three GetEvalInput/Output, the params copy,
    # the type switch, three GetTensorShape (an estimate)
    glue={"reference": EvalGlue((14, 14), (2, 1, 3, 0))},
    op_data=(4, 0, 0),         # TfLiteResizeNearestNeighborParams {bool, bool}
    run_reference=run_reference,
)
