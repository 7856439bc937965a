"""QUANTIZE: TFLM's Register_QUANTIZE() (quantize.cc, quantize_common.cc): int8 / int16 ->
int8 / int16 / int32 requantization on the machine (reference kernel on every path; the
edges of a 16x8 model); float -> int8 on the host."""
from armsim.kernels.tflm.quantization_util import (QuantizationError, quantize_multiplier)
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, require_int8,
                                     tensor_scale, tensor_zero_point)


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    if inp.type == "FLOAT32" or out.type not in ("INT16", "INT32"):
        require_int8(model, op, out, "output")
    elif not len(out.scale):
        raise error(model, op, f"output {out.describe()} has no quantization parameters")
    if inp.shape != out.shape:
        raise error(model, op, "input and output shapes differ")
    tag = case_tag(model, op)
    if inp.type == "FLOAT32":
        case = {"case": tag, "family": "quantize", "from": "FLOAT32",
                "scale": float(tensor_scale(out)), "zero_point": tensor_zero_point(out), "size": out.size}
        return Step(op.index, op.op, "quantize", case, {"input": inp.index}, out.index, out.shape,
                    reference_only=True, host=True)
    if inp.type != "INT16":
        require_int8(model, op, inp, "input")
    elif not len(inp.scale):
        raise error(model, op, f"input {inp.describe()} has no quantization parameters")
    try:
        mult, shift = quantize_multiplier(float(tensor_scale(inp)) / float(tensor_scale(out)))
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    case = {"case": tag, "family": "quantize", "from": inp.type, "to": out.type,
            "input_zp": tensor_zero_point(inp), "output_zp": tensor_zero_point(out),
            "multiplier": mult, "shift": shift, "size": out.size}
    return Step(op.index, op.op, "quantize", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=out.type.lower())


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import quantize
    return quantize.run_reference(m, case, addr, tracer)


def run_host(case, x):
    from armsim.kernels.tflm import quantize
    return quantize.host_quantize(case, x)


OPERATOR = Operator(
    name="QUANTIZE", max_version=3, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # quantize_common.cc PrepareQuantizeReference
    glue={"reference": EvalGlue((0, 0), (1, 1, 2, 0))},
    op_data=(0, 24, 24),       # OpDataQuantizeReference
    run_reference=run_reference,
    run_host=run_host,
    converter_version=2,
)
