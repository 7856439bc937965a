"""CAST: TFLM's Register_CAST() (cast.cc), the reference kernel on every path; armsim
simulates the casts among int8, int16 and int32 (quantization is not read: static_cast).

Prepare checks one input and one output; Eval takes int8, int16, int32, uint32, float32 and
bool inputs and int8, int16, int32, uint32 and float32 outputs.
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import NotSimulated, Step, case_tag, error, input_tensor

INPUTS = ("INT8", "INT16", "INT32", "UINT32", "FLOAT32", "BOOL")
OUTPUTS = ("INT8", "INT16", "INT32", "UINT32", "FLOAT32")
SIMULATED = {"INT8": ("int8_t", 1), "INT16": ("int16_t", 2), "INT32": ("int32_t", 4)}


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    if inp.type not in INPUTS or out.type not in OUTPUTS:
        raise error(model, op, f"cast from {inp.type} to {out.type}: TFLM's CAST takes "
                               f"{', '.join(INPUTS)} to {', '.join(OUTPUTS)}")
    if out.size != inp.size:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, input "
                               f"{inp.size}")
    if inp.type not in SIMULATED or out.type not in SIMULATED:
        raise NotSimulated(f"cast from {inp.type} to {out.type}: armsim simulates int8, "
                           f"int16 and int32")
    (from_c, in_bytes), (to_c, out_bytes) = SIMULATED[inp.type], SIMULATED[out.type]
    case = {"case": case_tag(model, op), "family": "cast", "rank": len(inp.shape),
            "size": int(inp.size), "in_bytes": in_bytes, "out_bytes": out_bytes,
            "from": from_c, "to": to_c}
    return Step(op.index, op.op, "cast", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=to_c.replace("_t", ""))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import cast
    return cast.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="CAST", max_version=6, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # cast.cc CastPrepare
    # CastEval: GetEvalInput, GetEvalOutput, two GetTensorShape; body an estimate
    glue={"reference": EvalGlue((8, 8), (1, 1, 2, 0))},
    op_data=(0, 0, 0),
    run_reference=run_reference,
)
