"""PRELU: TFLM's Register_PRELU() (prelu.cc, prelu_common.cc), the reference kernel
(BroadcastPrelu4DSlow) on every path, alpha broadcast to the input as its kernel does;
int8, or int16 input and output with int8 alpha (PreluEval's type switch; PreluPrepare
refuses an int16 output with another alpha type).

Prepare (CalculatePreluParams, int8): output_multiplier_1/shift_1 = QuantizeMultiplier of
(double)input scale / (double)output scale, output_multiplier_2/shift_2 of (double)input
scale * (double)alpha scale / (double)output scale (double arithmetic, unlike most
Prepares), input/alpha offsets = -zero points, output offset = its zero point.  TFLM checks
no shapes (only DCHECKs rank <= 4); armsim refuses what would index outside a tensor.  A
constant alpha is placed in flash (the step's `constants`).
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     element_type, require_int8, require_int8_or_int16,
                                     tensor_scale, tensor_zero_point)


def prepare(model, op):
    inp, alpha = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "alpha")
    out = model.tensors[op.outputs[0]]
    if out.type == "INT16" and alpha.type != "INT8":
        raise error(model, op, f"alpha {alpha.describe()} is {alpha.type}: TFLM's PreluPrepare "
                               f"requires an INT8 alpha with an INT16 output")
    elem = require_int8_or_int16(model, op, inp, "input")
    if out.type != inp.type:
        raise NotSimulated(f"output {out.describe()} is {out.type}, input {inp.describe()} "
                           f"{inp.type}: armsim simulates PRELU with equal input and output "
                           f"types")
    require_int8_or_int16(model, op, out, "output")
    require_int8(model, op, alpha, "alpha")
    for t, what in ((inp, "input"), (alpha, "alpha"), (out, "output")):
        if len(t.shape) > 4:
            raise error(model, op, f"{what} {t.describe()} has rank {len(t.shape)}: TFLM's "
                                   f"BroadcastPrelu4DSlow takes at most 4")
    try:
        shape = tuple(np.broadcast_shapes(inp.shape, alpha.shape))
    except ValueError:
        raise error(model, op, f"alpha shape {list(alpha.shape)} does not broadcast to input "
                               f"shape {list(inp.shape)}") from None
    if shape != tuple(out.shape):
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, input "
                               f"and alpha broadcast to {list(shape)}")
    si, sa, so = (float(tensor_scale(t)) for t in (inp, alpha, out))
    try:
        m1, s1 = quantize_multiplier(si / so)
        m2, s2 = quantize_multiplier(si * sa / so)
    except (QuantizationError, ZeroDivisionError) as e:
        raise error(model, op, f"scales {si}, {sa}, {so}: {e}") from None
    case = {"case": case_tag(model, op), "family": "prelu",
            "input_shape": list(inp.shape), "alpha_shape": list(alpha.shape),
            "output_shape": list(out.shape), "input_offset": -tensor_zero_point(inp),
            "alpha_offset": -tensor_zero_point(alpha), "output_offset": tensor_zero_point(out),
            "output_multiplier_1": m1, "output_shift_1": s1, "output_multiplier_2": m2,
            "output_shift_2": s2, "elem": elem}
    step = Step(op.index, op.op, "prelu", case, {"inputs": [inp.index, alpha.index]}, out.index,
                out.shape, reference_only=True, output_dtype=element_type(elem))
    for t, dtype in ((inp, np.int8 if elem == 1 else np.int16), (alpha, np.int8)):
        if t.constant:
            step.constants[t.index] = np.asarray(t.data).astype(dtype)
    return step


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import prelu
    return prelu.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="PRELU", max_version=1, prepare=prepare,
    # PreluEval: three tensor lookups, the type switch, three GetTensorShape (an estimate)
    glue={"reference": EvalGlue((20, 20), (2, 1, 3, 0))},
    op_data=(0, 28, 28),       # no builtin params; PreluParams (7 int32)
    run_reference=run_reference,
)
