"""RESHAPE: TFLM's Register_RESHAPE() (reshape.cc EvalReshapeReference): a copy when input
and output are different buffers, of int8 or int16 tensors; the reference kernel on every
path."""
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, error, input_tensor, require_int8_or_int16, case_tag,
                                     element_type)


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    if inp.size != out.size:
        raise error(model, op, f"input {inp.describe()} has {inp.size} elements, output "
                              f"{out.describe()} {out.size}")
    if inp.type != out.type:
        raise error(model, op, "input and output types differ")
    elem = require_int8_or_int16(model, op, inp, "input")   # a memcpy of any type
    case = {"case": case_tag(model, op), "family": "reshape",
            "bytes": inp.nbytes}
    return Step(op.index, op.op, "reshape", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import reshape
    return reshape.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="RESHAPE", max_version=1, prepare=prepare,
    input_counts=(1, 2), output_counts=(1,),   # reshape_common.cc PrepareReshapeReference
    options="ReshapeOptions",
    option_fields=(),
    option_lists=("NewShape",),
    glue={"reference": EvalGlue((31 + 29 + 13, 31 + 29 + 13), (1, 1, 0, 0))},
    op_data=(36, 0, 0),        # TfLiteReshapeParams
    run_reference=run_reference,
    same_quantization=(0,),
)
