"""SPLIT_V: TFLM's Register_SPLIT_V() (split_v.cc), the reference kernel on every path; one
output buffer per output.

Prepare requires three inputs and the axis tensor (input 2) constant; Eval as SPLIT's, but
each output's block is its own dim along axis (size_splits is not read: the output shapes
are the model's).
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import input_tensor
from armsim.operators.split import split_step


def prepare(model, op):
    inp, axis_t = input_tensor(model, op, 0, "input"), input_tensor(model, op, 2, "axis")
    return split_step(model, op, inp, axis_t, True)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import split
    return split.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="SPLIT_V", max_version=2, prepare=prepare,
    input_counts=(3,),         # split_v.cc SplitVPrepare
    options="SplitVOptions", option_fields=("NumSplits",),
    # SplitVEval: GetEvalInput (input, axis), the axis checks, the type switch; body an
    # estimate
    glue={"reference": EvalGlue((14, 14), (2, 0, 0, 0))},
    op_data=(4, 0, 0),         # TfLiteSplitVParams {num_splits}
    run_reference=run_reference,
)
