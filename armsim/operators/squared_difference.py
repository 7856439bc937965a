"""SQUARED_DIFFERENCE: TFLM's Register_SQUARED_DIFFERENCE() (squared_difference.cc), the
reference kernel on every path, broadcasting as TFLM does (BroadcastBinaryFunction4DSlow
when the input shapes differ).

Prepare (SquaredDifferencePrepare): equal input types (TF_LITE_ENSURE_TYPES_EQ); int8:
zero points within int8 (armsim.pipeline.model refuses others for any int8 tensor), left_shift 7,
activation range [-128, 127]; int16: every zero point 0 (TF_LITE_ENSURE), left_shift 0,
range [-32768, 32767]; twice_max_input_scale = 2.0 * (double)max(float scales); input
multipliers QuantizeMultiplierSmallerThanOneExp(scale / twice); output multiplier
QuantizeMultiplier(twice^2 / (double)((1 << 2 * left_shift) * output scale)) -- that
product is int * float, so float.  TFLM compares no
shapes; armsim refuses an output that is not the inputs' broadcast and a broadcast of
more than 4 dims (NdArrayDesc<4>).
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import (QuantizationError, quantize_multiplier,
                                                   quantize_multiplier_smaller_than_one_exp)
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     element_type, require_int8_or_int16, tensor_scale,
                                     tensor_zero_point)

LEFT_SHIFT = {1: 7, 2: 0}       # by element size: TFLM's left_shift for int8 and int16


def prepare(model, op):
    a, b = input_tensor(model, op, 0, "input1"), input_tensor(model, op, 1, "input2")
    out = model.tensors[op.outputs[0]]
    if a.type != b.type:
        raise error(model, op, f"input1 {a.describe()} is {a.type}, input2 {b.describe()} "
                               f"{b.type} (TFLM requires equal types)")
    elem = require_int8_or_int16(model, op, a, "input1")
    require_int8_or_int16(model, op, b, "input2")
    if out.type != a.type:
        raise NotSimulated(f"output {out.describe()} is {out.type}, the inputs {a.type}: "
                           f"armsim simulates SQUARED_DIFFERENCE with the inputs' type")
    require_int8_or_int16(model, op, out, "output")
    if elem == 2:
        for t, what in ((a, "input1"), (b, "input2"), (out, "output")):
            if tensor_zero_point(t) != 0:
                raise error(model, op, f"{what} {t.describe()} has zero point "
                                       f"{tensor_zero_point(t)} (TFLM's int16 "
                                       f"SQUARED_DIFFERENCE requires 0)")
    try:
        shape = tuple(np.broadcast_shapes(a.shape, b.shape))
    except ValueError:
        raise error(model, op, f"shapes {list(a.shape)} and {list(b.shape)} do not "
                               f"broadcast") from None
    if shape != tuple(out.shape):
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, the "
                               f"inputs broadcast to {list(shape)}")
    if a.shape != b.shape and len(shape) > 4:
        raise error(model, op, f"broadcasting {list(a.shape)} with {list(b.shape)}: TFLM's "
                               f"BroadcastBinaryFunction4DSlow takes at most 4 dimensions")
    s1, s2, so = tensor_scale(a), tensor_scale(b), tensor_scale(out)
    twice = 2.0 * float(max(s1, s2))
    try:
        m1, sh1 = quantize_multiplier_smaller_than_one_exp(float(s1) / twice)
        m2, sh2 = quantize_multiplier_smaller_than_one_exp(float(s2) / twice)
        mo, sho = quantize_multiplier(twice * twice /
                                      float(np.float32(1 << 2 * LEFT_SHIFT[elem]) * so))
    except (QuantizationError, ZeroDivisionError) as e:
        raise error(model, op, f"scales {s1}, {s2}, {so}: {e}") from None
    case = {"case": case_tag(model, op), "family": "squared_difference",
            "input1_shape": list(a.shape), "input2_shape": list(b.shape),
            "output_shape": list(out.shape), "size": int(out.size),
            "input1_offset": -tensor_zero_point(a), "input2_offset": -tensor_zero_point(b),
            "left_shift": LEFT_SHIFT[elem], "input1_multiplier": m1, "input1_shift": sh1,
            "input2_multiplier": m2, "input2_shift": sh2, "output_multiplier": mo,
            "output_shift": sho, "output_offset": tensor_zero_point(out), "elem": elem}
    step = Step(op.index, op.op, "squared_difference", case, {"inputs": [a.index, b.index]},
                out.index, out.shape, reference_only=True, output_dtype=element_type(elem))
    for t in (a, b):
        if t.constant:
            step.constants[t.index] = np.asarray(t.data).astype(np.int8 if elem == 1 else
                                                                 np.int16)
    return step


def run_reference(m, case, addr, tracer=None):
    """SquaredDifferenceEval: ElementWise, or the broadcast when data->requires_broadcast."""
    from armsim.kernels.tflm import broadcast_binary, squared_difference
    if case["input1_shape"] != case["input2_shape"]:
        return broadcast_binary.run_reference(m, case, addr, tracer)
    return squared_difference.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="SQUARED_DIFFERENCE", max_version=2, prepare=prepare,
    input_counts=(2,), output_counts=(1,),     # SquaredDifferencePrepare
    # SquaredDifferenceEval: three tensor lookups, the output-type chain, three
    # GetTensorShape (an estimate)
    glue={"reference": EvalGlue((24, 24), (2, 1, 3, 0))},
    op_data=(0, 48, 48),       # no builtin params; OpData (bool + ArithmeticParams' int32s)
    run_reference=run_reference,
)
