"""CONCATENATION: TFLM's Register_CONCATENATION() (concatenation.cc), the reference kernel
on every path, int8 or int16 (Prepare: int8 inputs share the output's scale and zero point,
int16 inputs and output have zero point 0, scales free: the kernel copies raw values)."""
import numpy as np

from armsim.operators import EVERY_INPUT, EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, fused_activation, element_type,
                                     require_int8_or_int16, tensor_scale, tensor_zero_point)


def prepare(model, op):
    ins = [model.tensors[i] for i in op.inputs if i >= 0]
    out = model.tensors[op.outputs[0]]
    elem = require_int8_or_int16(model, op, out, "output")
    axis = op.options["Axis"]
    rank = len(out.shape)
    if axis < 0:
        axis += rank
    if not 0 <= axis < rank:
        raise error(model, op, f"axis {op.options['Axis']} out of range for rank {rank}")
    act = fused_activation(op.options["FusedActivationFunction"])
    if act != "NONE":   # concatenation.cc: TF_LITE_ENSURE_EQ(params->activation, kTfLiteActNone)
        raise error(model, op, f"fused activation {act} (TFLM's CONCATENATION takes none)")
    total = 0
    for t in ins:
        if t.type != out.type:   # concatenation.cc TF_LITE_ENSURE_TYPES_EQ
            raise error(model, op, f"input {t.describe()} is {t.type}, output {out.type}")
        require_int8_or_int16(model, op, t, "input")
        if len(t.shape) != rank or any(t.shape[d] != out.shape[d]
                                       for d in range(rank) if d != axis):
            raise error(model, op, f"input {t.describe()} shape {list(t.shape)} does not "
                                  f"match output {list(out.shape)} off axis {axis}")
        if elem == 2 and tensor_zero_point(t) != 0:
            raise error(model, op, f"input {t.describe()} zero point {tensor_zero_point(t)} "
                                  f"(TFLM int16 concatenation requires 0)")
        if elem == 1 and (tensor_scale(t) != tensor_scale(out)
                          or tensor_zero_point(t) != tensor_zero_point(out)):
            raise error(model, op, f"input {t.describe()} quantization differs from the "
                                  f"output's (TFLM int8 concatenation requires equal)")
        total += t.shape[axis]
    if elem == 2 and tensor_zero_point(out) != 0:
        raise error(model, op, f"output {out.describe()} zero point {tensor_zero_point(out)} "
                              f"(TFLM int16 concatenation requires 0)")
    if total != out.shape[axis]:
        raise error(model, op, f"inputs sum to {total} along axis {axis}, output has "
                              f"{out.shape[axis]}")
    outer = int(np.prod(out.shape[:axis], dtype=np.int64))
    inner = int(np.prod(out.shape[axis + 1:], dtype=np.int64))
    case = {"case": case_tag(model, op), "family": "concatenation",
            "outer": outer, "elem": elem,
            "copy_sizes": [int(t.shape[axis]) * inner for t in ins]}
    return Step(op.index, op.op, "concatenation", case, {"inputs": [t.index for t in ins]},
                out.index, out.shape, reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import concatenation
    return concatenation.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="CONCATENATION", max_version=4, prepare=prepare,
    options="ConcatenationOptions",
    option_fields=("Axis", "FusedActivationFunction"),
    glue={"reference": EvalGlue((0, 0), (1, 1, 2, 0), shapes_per_input=True)},
    op_data=(8, 40, 40),       # TfLiteConcatenationParams; OpData
    run_reference=run_reference,
    same_quantization=EVERY_INPUT,
    converter_version=2,
)
