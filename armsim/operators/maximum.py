"""MAXIMUM: TFLM's Register_MAXIMUM() (cmsis_nn/maximum_minimum.cc EvalMaximum: int8 goes to
arm_maximum_s8 with each shape extended to 4-D; reference maximum_minimum.cc ->
MaximumMinimumBroadcastSlow).  TFLM registers no Prepare: nothing is derived, nothing is
checked; armsim checks what the kernels assume (int8, rank <= 4 for ExtendedShape(4),
operands that broadcast to the output shape).  A constant operand travels in the case.
For a one-element row against a wider one ([1, H, 1, 1] with [1, H, W, C], W > 1) the
CMSIS-NN kernel reads past the smaller operand (kernels/cmsis_nn/arm_maximum_s8.py):
armsim's simd and scalar paths reproduce that, so their outputs differ from TFLM's
reference kernel there.

Eval glue: no measurement covers these Evals; the body sizes are estimates from the C
(OpContext, the three FillVariableShape calls / the reference TFLiteOperation), the call
counts are the code's: OpContext looks all three tensors up, then Eval again.

int16 (16x8 models): cmsis_nn/maximum_minimum.cc sends int16 to TFLiteOperation<int16_t>,
the reference kernel, on every path; its operands travel as "inputs" (a constant one in
flash, the step's `constants`).
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, element_type,
                                     require_int8, simulated_elem)

DIMS = "nhwc"


def prepare_max_min(model, op, family):
    a, b = input_tensor(model, op, 0, "input1"), input_tensor(model, op, 1, "input2")
    out = model.tensors[op.outputs[0]]
    elem = simulated_elem(out, [a, b], "output")
    for t, what in ((a, "input1"), (b, "input2"), (out, "output")):
        if elem == 1:
            require_int8(model, op, t, what)
        if len(t.shape) > 4:
            raise error(model, op, f"{what} {t.describe()} has rank {len(t.shape)}: TFLM's "
                                   f"CMSIS-NN {op.op} extends shapes to 4-D")
    try:
        shape = tuple(np.broadcast_shapes(a.shape, b.shape))
    except ValueError:
        raise error(model, op, f"shapes {list(a.shape)} and {list(b.shape)} do not "
                               f"broadcast") from None
    if shape != tuple(out.shape):
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, the "
                               f"operands broadcast to {list(shape)}")

    def dims4(t):
        return dict(zip(DIMS, [1] * (4 - len(t.shape)) + [int(d) for d in t.shape]))
    case = {"case": case_tag(model, op), "family": family, "input_1_dims": dims4(a),
            "input_2_dims": dims4(b), "output_dims": dims4(out),
            "tensor_shapes": [list(a.shape), list(b.shape), list(out.shape)]}
    if elem == 2:
        return Step(op.index, op.op, family, dict(case, elem=elem),
                    {"inputs": [a.index, b.index]}, out.index, out.shape, reference_only=True,
                    output_dtype=element_type(elem),
                    constants={t.index: np.asarray(t.data).astype(np.int16)
                               for t in (a, b) if t.constant})
    inputs = {}
    for field, t in (("input", a), ("input2", b)):
        if t.constant:
            case[field] = np.asarray(t.data).astype(np.int8).ravel()
        else:
            inputs[field] = t.index
    return Step(op.index, op.op, family, case, inputs, out.index, out.shape)


def prepare(model, op):
    return prepare_max_min(model, op, "maximum")


def run_reference(m, case, addr, tracer=None):
    """int16's reference-only run (int8's reference path runs through the family)."""
    from armsim.kernels.tflm.maximum_minimum import run_max_min, shapes
    a, b = addr["inputs"]
    return run_max_min(m, case["family"] == "maximum", *shapes(case), a, b, addr["output"],
                       tracer, case["elem"])


GLUE = {"cmsis": EvalGlue((40 + 3 * 20, 40 + 3 * 20), (5, 2, 3, 0)),
        # EvalMaximum + OpContext + FillVariableShape x 3 (estimates)
        "reference": EvalGlue((40 + 20, 40 + 20), (5, 2, 3, 0))}
        # EvalMaximum + TFLiteOperation (estimates)

OPERATOR = Operator(
    name="MAXIMUM", max_version=4, prepare=prepare,
    cmsis_entry="arm_maximum_s8", glue=GLUE,
    op_data=(0, 0, 0),         # no builtin params, no OpData
    run_reference=run_reference,
    families=("maximum",),
    same_quantization=(0, 1),
    converter_version=2,
)
