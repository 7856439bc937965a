"""LOGISTIC: TFLM's Register_LOGISTIC() (logistic.cc, logistic_common.cc
CalculateArithmeticOpDataLogistic), the reference kernel on every path; int8 and int16.

Prepare (int8): input and output types equal, the output's zero point -128 (its scale is
not read: the kernel writes 1/256 steps); input_real_multiplier = (double)input scale *
2^27 (kInputIntegerBits 4); q = frexp(..., &input_left_shift); input_multiplier =
(int32)TfLiteRound(q * 2^31); input_range_radius = CalculateInputRadius(4, left shift, 31)
= floor(15 * 2^27 / 2^left_shift).

Prepare (int16, `prepare_s16`, shared with TANH): both zero points 0; an input scale of
2^(shift - 12) (CheckedLog2) with the shift in the op's power-of-two set gives input_multiplier
0 (the kernel then uses 3 << shift); otherwise multiplier = input scale * 3 * 4096, doubled
while <= 32767 / 2 and the shift <= 30 (one shift step per doubling), truncated to int32; the
output scale must be 2^-15 (CheckedLog2).  The kernel reads sigmoid_table_uint16 from flash.
"""
import math

from armsim.kernels.cmsis_nn.arm_nn_tables import SIGMOID_TABLE_UINT16
from armsim.kernels.tflm.quantization_util import checked_log2, tflite_round
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     tensor_scale, tensor_zero_point)
from armsim.operators.relu import unary_operands

INPUT_INTEGER_BITS = 4
S16_INPUT_INTEGER_BITS = 3
S16_OUTPUT_FRACTIONAL_BITS = 15
#: the input left shifts (15 - 3 + log2 scale) LOGISTIC's int16 Prepare keeps as a power of two
POWER_OF_TWO_SHIFTS = (0,)


def input_params(model, op, inp, integer_bits):
    """(multiplier, left shift, radius) of LOGISTIC's / TANH's int8 Prepare."""
    real = float(tensor_scale(inp)) * float(1 << (31 - integer_bits))
    q, shift = math.frexp(real)
    mult = int(tflite_round(q * float(1 << 31)))
    if not (real > 0 and math.isfinite(real)) or mult >= 2**31 or shift < 0:
        # a mantissa rounding to 2^31 or a negative shift: TFLM's int32 cast / 1LL << shift
        # are undefined there
        raise error(model, op, f"input {inp.describe()}: scale {float(tensor_scale(inp)):g} "
                               f"gives no valid input multiplier")
    radius = math.floor(((1 << integer_bits) - 1) * float(1 << (31 - integer_bits)) /
                        float(1 << shift))
    return mult, shift, radius


def s16_input_params(model, op, inp, out, power_of_two_shifts):
    """(multiplier, left shift) of LOGISTIC's / TANH's int16 Prepare, with its refusals."""
    for t, what in ((inp, "input"), (out, "output")):
        if not len(t.scale) or not (float(tensor_scale(t)) > 0 and
                                    math.isfinite(float(tensor_scale(t)))):
            raise error(model, op, f"{what} {t.describe()} has no valid quantization scale")
        if tensor_zero_point(t) != 0:
            raise error(model, op, f"{what} {t.describe()} has zero point "
                                   f"{tensor_zero_point(t)}; TFLM's int16 {op.op} requires 0")
    log2, power_of_two = checked_log2(tensor_scale(inp))
    shift = (15 - S16_INPUT_INTEGER_BITS) + log2
    if power_of_two and shift in power_of_two_shifts:
        mult = 0
    else:
        real = float(tensor_scale(inp)) * 4096.0 * 3.0
        shift = 0
        while real <= 32767.0 / 2.0 and shift <= 30:
            shift += 1
            real *= 2.0
        mult = int(real)
        if not 0 < mult < 2**31:
            # TFLM's int32 cast is undefined above; 0 would read as the power-of-two case
            raise error(model, op, f"input {inp.describe()}: scale "
                                   f"{float(tensor_scale(inp)):g} gives no valid input "
                                   f"multiplier")
    out_log2, out_power_of_two = checked_log2(tensor_scale(out))
    if not out_power_of_two or out_log2 != -S16_OUTPUT_FRACTIONAL_BITS:
        raise error(model, op, f"output {out.describe()} has scale "
                               f"{float(tensor_scale(out)):g}; TFLM's int16 {op.op} requires "
                               f"2^-{S16_OUTPUT_FRACTIONAL_BITS}")
    return mult, shift


def prepare_s16(model, op, family, power_of_two_shifts):
    """The int16 step of LOGISTIC / TANH: equal types checked by the caller."""
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    if out.size != inp.size:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, input "
                               f"{inp.describe()} {inp.size} (TFLM's kernel writes the "
                               f"input's flat size)")
    mult, shift = s16_input_params(model, op, inp, out, power_of_two_shifts)
    case = {"case": case_tag(model, op), "family": family, "size": int(inp.size),
            "multiplier": mult, "left_shift": shift}
    return Step(op.index, op.op, family, case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype="int16",
                tables={"sigmoid_table": SIGMOID_TABLE_UINT16})


def prepare(model, op):
    inp = model.tensors[op.inputs[0]]
    out = model.tensors[op.outputs[0]]
    if inp.type != out.type:
        raise error(model, op, f"input {inp.describe()} is {inp.type}, output "
                               f"{out.describe()} {out.type} (TFLM requires equal types)")
    if inp.type == "INT16":
        return prepare_s16(model, op, "logistic_s16", POWER_OF_TWO_SHIFTS)
    if inp.type != "INT8":
        raise NotSimulated(f"input {inp.describe()} is {inp.type}: armsim simulates int8")
    inp, out = unary_operands(model, op)
    if tensor_zero_point(out) != -128:
        raise error(model, op, f"output {out.describe()} has zero point "
                               f"{tensor_zero_point(out)}; TFLM's int8 LOGISTIC requires -128")
    mult, shift, radius = input_params(model, op, inp, INPUT_INTEGER_BITS)
    case = {"case": case_tag(model, op), "family": "logistic", "size": int(inp.size),
            "input_zp": tensor_zero_point(inp), "radius": radius, "multiplier": mult,
            "left_shift": shift}
    return Step(op.index, op.op, "logistic", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True)


def run_reference(m, case, addr, tracer=None):
    if case["family"] == "logistic_s16":
        from armsim.kernels.tflm import activation_s16
        return activation_s16.run_logistic(m, case, addr, tracer)
    from armsim.kernels.tflm import logistic
    return logistic.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="LOGISTIC", max_version=3, prepare=prepare,
    # LogisticEval: GetEvalInput, GetEvalOutput, the type switches, NumElements (no
    # shapes); body an estimate
    glue={"reference": EvalGlue((14, 14), (1, 1, 0, 0))},
    op_data=(0, 16, 16),       # OpDataLogistic
    run_reference=run_reference,
    fixed_output=(1.0 / 256, -128),
)
