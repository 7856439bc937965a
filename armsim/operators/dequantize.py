"""DEQUANTIZE: TFLM's Register_DEQUANTIZE() (dequantize.cc): int8 -> float32, FPU code
armsim does not model, computed on the host."""
from armsim.operators import Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, require_int8,
                                     tensor_scale, tensor_zero_point)


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    require_int8(model, op, inp, "input")
    if out.type != "FLOAT32":
        raise error(model, op, f"output {out.describe()} is {out.type}; only int8 -> float32 "
                              f"DEQUANTIZE is supported")
    if out.size != inp.size:   # TFLM writes the input's count: past the output, or short of it
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)} "
                               f"({out.size} values), input {inp.describe()} "
                               f"{list(inp.shape)} ({inp.size})")
    case = {"case": case_tag(model, op), "family": "dequantize",
            "scale": float(tensor_scale(inp)), "zero_point": tensor_zero_point(inp), "size": inp.size}
    return Step(op.index, op.op, "dequantize", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, host=True)


def run_host(case, x):
    from armsim.kernels.tflm import dequantize
    return dequantize.host_dequantize(case, x)


OPERATOR = Operator(
    name="DEQUANTIZE", max_version=6, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # dequantize_common.cc DequantizePrepare
    glue={},
    op_data=(0, 24, 24),       # DequantizeOpData
    run_host=run_host,
    converter_version=2,
)
