"""Derive every kernel parameter from a validated `Model` as TFLite Micro's Prepare does.

Each operator's Prepare lives in its module under `armsim.operators`; this runs them in
execution order, after the option ranges every Prepare assumes.  Each returns a
`armsim.operators.common.Step`: the case dict (the CMSIS-NN vectors' JSON schema, see
../shared/cmsis_nn_vectors/README.md) that `armsim.pipeline.harness.run_case` runs on any
path, or, for ops without a CMSIS-NN port, the case their TFLM reference port runs.
"""
from armsim import operators
from armsim.pipeline import tflm_host
from armsim.operators.common import NotSimulated, Step, case_tag, error, file_name

from armsim.errors import ModelError


def prepare(model):
    """All steps of `model` in execution order; raises ModelError naming the op."""
    return [_prepare_op(model, op) for op in model.operators]


def _prepare_op(model, op):
    operator = operators.get(op.op)
    if operator is None:
        return host_step(model, op, "no kernel port in armsim")
    if op.version > operator.max_version:
        return host_step(model, op, f"version {op.version}: armsim ports versions "
                                    f"1..{operator.max_version}")
    _check_operand_counts(model, op, operator)
    _check_options(model, op)
    try:
        return operator.prepare(model, op)
    except NotSimulated as e:
        return host_step(model, op, str(e))
    except ModelError:
        raise
    except (ArithmeticError, IndexError, KeyError, TypeError, ValueError) as e:
        # anything the explicit checks did not name: still one line naming the op
        raise error(model, op, f"invalid parameters ({type(e).__name__}: {e})") from None


def _check_operand_counts(model, op, operator):
    """The input / output counts the op's TFLM Prepare accepts (an extra input is refused)."""
    for kind, have, allowed in (("inputs", len(op.inputs), operator.input_counts),
                                ("outputs", len(op.outputs), operator.output_counts)):
        if allowed is not None and have not in allowed:
            raise error(model, op, f"{have} {kind}; TFLM's {op.op} Prepare takes "
                                   f"{' or '.join(map(str, allowed))}")


def _check_options(model, op):
    """Option ranges TFLM's Prepare assumes (strides, dilations, filter sizes, padding)."""
    o = op.options
    for key in ("StrideW", "StrideH", "DilationWFactor", "DilationHFactor", "FilterWidth",
                "FilterHeight", "DepthMultiplier"):
        if key in o and o[key] < 1:
            raise error(model, op, f"option {key} = {o[key]} must be >= 1")
    if "Padding" in o and o["Padding"] not in (0, 1):
        raise error(model, op, f"unknown padding code {o['Padding']}")


def host_step(model, op, reason):
    """A step TFLM computes on the host (armsim.pipeline.tflm_host); its Prepare runs now, so an op
    TFLM refuses is a ModelError here, as it would be in TFLM's AllocateTensors."""
    if not model.raw:
        raise error(model, op, f"not simulated ({reason}) and the model's bytes are not "
                               f"at hand to let TFLM compute it")
    one_op = tflm_host.cut(model, op)
    tflm_host.check(one_op, f"{file_name(model)}: {op.describe()}")
    out = model.tensors[op.outputs[0]]
    inputs = [i for i in op.inputs if i >= 0 and not model.tensors[i].constant
              and not model.tensors[i].is_variable]       # (state: TFLM keeps it)
    return Step(op.index, op.op, "tflm", {"case": case_tag(model, op), "reason": reason},
                {"inputs": inputs}, out.index, out.shape, reference_only=True, host=True,
                tflm_model=one_op, outputs=list(op.outputs), host_reason=reason)
