"""TANH: TFLM's Register_TANH() (tanh.cc TanhPrepare / CalculateArithmeticOpData), the
reference kernel on every path; int8.

Prepare (int8): one input, one output of the same type; input_zero_point, and the input
multiplier, left shift and radius as LOGISTIC's (4 integer bits); the output's quantization
is not read (the kernel writes 1/128 steps around 0).

Prepare (int16): LOGISTIC's `prepare_s16` (tanh_common.cc has the same code) with input left
shifts 0 and 1 (input scales 2^-12 and 2^-11) kept as powers of two.
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import NotSimulated, Step, case_tag, error, tensor_zero_point
from armsim.operators.logistic import INPUT_INTEGER_BITS, input_params, prepare_s16
from armsim.operators.relu import unary_operands

#: the input left shifts (15 - 3 + log2 scale) TANH's int16 Prepare keeps as a power of two
POWER_OF_TWO_SHIFTS = (0, 1)


def prepare(model, op):
    inp = model.tensors[op.inputs[0]]
    out = model.tensors[op.outputs[0]]
    if inp.type != out.type:
        raise error(model, op, f"input {inp.describe()} is {inp.type}, output "
                               f"{out.describe()} {out.type} (TFLM requires equal types)")
    if inp.type == "INT16":
        return prepare_s16(model, op, "tanh_s16", POWER_OF_TWO_SHIFTS)
    if inp.type != "INT8":
        raise NotSimulated(f"input {inp.describe()} is {inp.type}: armsim simulates int8")
    inp, out = unary_operands(model, op)
    mult, shift, radius = input_params(model, op, inp, INPUT_INTEGER_BITS)
    case = {"case": case_tag(model, op), "family": "tanh", "size": int(inp.size),
            "input_zp": tensor_zero_point(inp), "radius": radius, "multiplier": mult,
            "left_shift": shift}
    return Step(op.index, op.op, "tanh", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True)


def run_reference(m, case, addr, tracer=None):
    if case["family"] == "tanh_s16":
        from armsim.kernels.tflm import activation_s16
        return activation_s16.run_tanh(m, case, addr, tracer)
    from armsim.kernels.tflm import tanh
    return tanh.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="TANH", max_version=3, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # tanh.cc CalculateArithmeticOpData
    # TanhEval: GetEvalInput, GetEvalOutput, the type switch, two GetTensorShape; body an
    # estimate
    glue={"reference": EvalGlue((14, 14), (1, 1, 2, 0))},
    op_data=(0, 16, 16),       # OpData {input_zero_point, radius, multiplier, left shift}
    run_reference=run_reference,
)
