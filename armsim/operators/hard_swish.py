"""HARD_SWISH: TFLM's Register_HARD_SWISH() (hard_swish.cc, hard_swish_common.cc
HardSwishPrepare), the reference kernel on every path.

Prepare (int8): one input, one output; hires_input_scale = (1.0f / 128.0f) * input scale,
reluish_scale = 3.0f / 32768.0f; output and reluish multipliers = QuantizeMultiplier of
(double)(hires_input_scale / output scale) and (double)(hires_input_scale / reluish_scale),
each DownScaleInt32ToInt16Multiplier'd ((m + 2^15) >> 16, 32767 near the top); the output
exponent must be <= 0.  Zero points are kept as int16.
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.operators import Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, tensor_scale,
                                     tensor_zero_point)
from armsim.operators.relu import UNARY_GLUE

INT32_MAX = 2**31 - 1


def down_scale_to_int16(multiplier):
    """DownScaleInt32ToInt16Multiplier (kernels/internal/common.h)."""
    if multiplier >= INT32_MAX - (1 << 15):
        return 32767
    return (multiplier + (1 << 15)) >> 16


def _int16(v):
    return (int(v) + 32768) % 65536 - 32768


def prepare(model, op):
    inp = model.tensors[op.inputs[0]]
    out = model.tensors[op.outputs[0]]
    if inp.type not in ("FLOAT32", "INT8"):
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's HARD_SWISH "
                               f"takes float32 and int8")
    if inp.type != "INT8" or out.type != "INT8":
        raise NotSimulated(f"input {inp.describe()} is {inp.type}, output {out.type}: armsim "
                           f"simulates int8")
    if out.size != inp.size:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, input "
                               f"{inp.size} (TFLM writes the input's count)")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        hires = np.float32(1.0 / 128.0) * tensor_scale(inp)
        out_real = float(hires / tensor_scale(out))
        reluish_real = float(hires / np.float32(3.0 / 32768.0))
    try:
        out_mult, out_exp = quantize_multiplier(out_real)
        rel_mult, rel_exp = quantize_multiplier(reluish_real)
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    if out_exp > 0:
        raise error(model, op, f"output multiplier exponent {out_exp} > 0 (output scale "
                               f"{float(tensor_scale(out)):g} too small: TFLM refuses it)")
    case = {"case": case_tag(model, op), "family": "hard_swish", "rank": len(inp.shape),
            "size": int(inp.size), "input_zp": _int16(tensor_zero_point(inp)),
            "output_zp": _int16(tensor_zero_point(out)),
            "output_multiplier": _int16(down_scale_to_int16(out_mult)),
            "output_exponent": out_exp,
            "reluish_multiplier": _int16(down_scale_to_int16(rel_mult)),
            "reluish_exponent": rel_exp}
    return Step(op.index, op.op, "hard_swish", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import hard_swish
    return hard_swish.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="HARD_SWISH", max_version=1, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # hard_swish_common.cc HardSwishPrepare
    glue=UNARY_GLUE,           # GetEvalInput/Output, the switch, two GetTensorShape
    op_data=(0, 20, 20),       # HardSwishParams: 3 int16, int, int16, int (padded)
    run_reference=run_reference,
)
