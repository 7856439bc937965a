"""ARG_MIN: TFLM's Register_ARG_MIN() (arg_min_max.cc, LessFn), the reference kernel on
every path; the checks and case of ARG_MAX."""
from armsim.operators import Operator
from armsim.operators.arg_max import OPERATOR as ARG_MAX
from armsim.operators.arg_max import arg_step, run_reference


def prepare(model, op):
    return arg_step(model, op, False)


OPERATOR = Operator(
    name="ARG_MIN", max_version=3, prepare=prepare,
    options="ArgMinOptions", option_fields=("OutputType",),
    glue=ARG_MAX.glue,
    op_data=(4, 0, 0),         # TfLiteArgMinParams {output_type}
    run_reference=run_reference,
)
