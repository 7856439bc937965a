"""L2_POOL_2D: TFLM's Register_L2_POOL_2D() (l2_pool_2d.cc) has no quantized kernel.

L2Prepare: one input, one output, both 4-D, of the same type, and then
TF_LITE_ENSURE_TYPES_EQ(input->type, kTfLiteFloat32) ("We currently don't have a quantized
implementation of L2Pool"): an int8 L2_POOL_2D is refused as TFLM refuses it.  float32 runs
on the host (TFLM's reference L2Pool), not simulated.
"""
from armsim.operators import Operator
from armsim.operators._pooling import POOL_FIELDS, POOL_OPTIONS
from armsim.operators.common import NotSimulated, error, input_tensor


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    for t, what in ((inp, "input"), (out, "output")):
        if len(t.shape) != 4:
            raise error(model, op, f"{what} {t.describe()} has rank {len(t.shape)}; TFLM "
                                   f"takes 4")
    if inp.type != out.type:
        raise error(model, op, f"input {inp.type}, output {out.type}: TFLM takes the same "
                               f"type")
    if inp.type != "FLOAT32":
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's L2_POOL_2D "
                               f"takes float32 only (it has no quantized kernel)")
    raise NotSimulated(f"input {inp.describe()} is FLOAT32: armsim simulates int8 kernels "
                       f"and TFLM has no int8 L2_POOL_2D")


OPERATOR = Operator(
    name="L2_POOL_2D", max_version=1, prepare=prepare,
    input_counts=(1,), output_counts=(1,),
    options=POOL_OPTIONS, option_fields=POOL_FIELDS,
)
