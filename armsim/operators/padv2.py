"""PADV2: TFLM registers PAD's Init/Prepare/Eval for it (cmsis_nn/pad.cc Register_PADV2,
pad.cc); the third input, constant_values, is the pad value (operators/pad.py)."""
from armsim.operators import EvalGlue, Operator
from armsim.operators.pad import OPERATOR as PAD, prepare_pad


def prepare(model, op):
    return prepare_pad(model, op, with_value=True)


OPERATOR = Operator(
    name="PADV2", max_version=4, prepare=prepare,
    input_counts=(2, 3), output_counts=(1,),   # pad_common.cc PadPrepare
    cmsis_entry=PAD.cmsis_entry,
    glue={"cmsis": EvalGlue(PAD.glue["cmsis"].body, (4, 2, 1, 0)),   # constant_values looked up twice
          "reference": EvalGlue(PAD.glue["reference"].body, (2, 1, 2, 0))},
    op_data=PAD.op_data,
    run_reference=PAD.run_reference,
    families=PAD.families,
    same_quantization=PAD.same_quantization,
    converter_version=2,
)
