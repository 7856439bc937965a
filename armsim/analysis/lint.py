"""`armsim lint MODEL`: the parts of TFLite's int8 quantization specification a converter can
get wrong and that change what CMSIS-NN computes, or how fast.

The rules are the specification's (TensorFlow Lite 8-bit quantization specification,
https://www.tensorflow.org/lite/performance/quantization_spec, kept in the TensorFlow
repository as tensorflow/lite/g3doc/performance/quantization_spec.md):

- weights are int8 with zero point 0, per-axis along dimension 0 (CONV_2D, TRANSPOSE_CONV)
  or 3 (DEPTHWISE_CONV_2D), per-tensor for FULLY_CONNECTED ("Specification summary",
  "Symmetric vs asymmetric", and the operator table);
- a bias is int32 with (scale, zero point) = (input0_scale * input1_scale[...], 0);
- SOFTMAX and LOGISTIC outputs are quantized (1/256, -128);
- activations are per-tensor int8 with a zero point in [-128, 127] (the loader already
  refuses one outside it); pooling, RESHAPE, CONCATENATION, PAD, TRANSPOSE, ... keep their
  input's scale and zero point.

Which ops a rule covers is each op's record (`armsim.operators.Operator`: `weights`,
`fixed_output`, `same_quantization`), not a table here.  A finding names the op and the tensor, the rule it breaks and what that costs or breaks on
CMSIS-NN.  When the op's own Prepare (`armsim.operators`, as TFLM's) refuses the op, the
finding quotes that refusal instead of guessing one, so lint and the run cannot disagree.
Lint also flags two choices the specification leaves open that cost speed or precision on
CMSIS-NN: per-tensor CONV/DEPTHWISE weights and float model inputs/outputs converted on the
device by QUANTIZE / DEQUANTIZE.
"""
from dataclasses import asdict, dataclass

import numpy as np

from armsim import operators
from armsim.errors import ModelError
from armsim.operators import EVERY_INPUT, common

# What a finding does on CMSIS-NN, worst first.
REFUSED = "refused"        # armsim (and TFLM's Prepare) will not run the op
OUTPUTS = "outputs"        # runs, with outputs the float model did not mean
SPEED = "speed"            # runs correctly, on a slower kernel path or with extra work
NOTE = "note"              # no change on CMSIS-NN, a loss the spec's choice avoids
KINDS = (REFUSED, OUTPUTS, SPEED, NOTE)

# Relative tolerance of "bias scale = input scale x weight scale": the converter computes
# the product and stores it as float32, so a correct bias scale is within one float32
# rounding (2**-24 relative) of the float32 product; 2**-20 leaves room for a product
# formed in double and rounded once more.
BIAS_SCALE_RTOL = 2.0 ** -20


@dataclass(frozen=True)
class Finding:
    rule: str          # short name: weight-zero-point, bias-scale, ...
    kind: str          # one of KINDS
    op: str            # "op 3 CONV_2D" ("" for a graph input/output)
    tensor: str        # "tensor 5 'conv/weights'"
    problem: str       # what the model has, against what the spec says
    effect: str        # what it costs or breaks on CMSIS-NN

    def line(self):
        where = ", ".join(w for w in (self.op, self.tensor) if w)
        return f"{where}: {self.problem} [{self.rule}] -> {self.kind}: {self.effect}"

    def to_json(self):
        return asdict(self)


def lint(model):
    """Every finding in `model` (an `armsim.pipeline.model.Model`), in op order."""
    findings = []
    for op in model.operators:
        found = []
        for check in _OP_CHECKS:
            found.extend(check(model, op))
        refusal = _prepare_refusal(model, op) if found else None
        # the refusal belongs to the findings on the tensor it names (all, if it names none)
        named = [f for f in found if refusal is not None and f.tensor in refusal]
        for f in found:
            if refusal is not None and (f in named or not named):
                f = Finding(f.rule, REFUSED, f.op, f.tensor, f.problem,
                            f"armsim refuses the op ({refusal}); {f.effect}")
            findings.append(f)
    findings.extend(_float_io(model))
    return findings


def _prepare_refusal(model, op):
    """The op's Prepare's one-line refusal, or None when it prepares (or armsim has no
    module for the op: TFLM runs it on the host, whose Prepare is TFLM's own)."""
    operator = operators.get(op.op)
    if operator is None:
        return None
    try:
        operator.prepare(model, op)
    except ModelError as e:
        return str(e).split(f"{op.describe()}: ", 1)[-1]
    except common.NotSimulated:
        return None
    return None


def _tensor(model, op, pos):
    idx = op.inputs[pos] if pos < len(op.inputs) else -1
    return model.tensors[idx] if idx >= 0 else None


def _rules(op):
    """The op's `Operator` record (the spec's rules for it), or None."""
    return operators.get(op.op)


def _weights(model, op):
    """(the op's `Weights` rules, weights, bias or None, input) of a weighted op with int8
    constant weights, or None."""
    operator = _rules(op)
    if operator is None or operator.weights is None:
        return None
    rules = operator.weights
    w = _tensor(model, op, rules.weights)
    if w is None or w.type != "INT8" or w.data is None or not len(w.scale):
        return None
    return rules, w, _tensor(model, op, rules.bias), _tensor(model, op, rules.input)


def _output_channels(rules, w):
    return w.shape[rules.axis] if len(w.shape) > rules.axis else w.size


def _weight_zero_point(model, op):
    found = _weights(model, op)
    if found is None:
        return []
    rules, w = found[:2]
    nonzero = sorted({int(z) for z in w.zero_point if z != 0})
    if not nonzero:
        return []
    if rules.weight_offset:
        effect = ("CMSIS-NN's fully connected kernels take their rhs_offset path: every weight "
                  "gets the offset added before the MAC (two SXTAB16 per 4 weights instead "
                  "of two SXTB16 in arm_nn_vec_mat_mult_t_s8's SIMD loop, one ADD per weight "
                  "on the scalar path)")
    else:
        effect = (f"CMSIS-NN's {op.op.lower()} kernels take no weight offset: the zero point "
                  f"cannot be applied")
    return [Finding("weight-zero-point", SPEED if rules.weight_offset else OUTPUTS,
                    op.describe(), w.describe(),
                    f"weight zero point {_listed(nonzero)} (spec: weights are symmetric, "
                    f"zero point 0)", effect)]


def _per_axis(model, op):
    """Weights quantized per axis along the wrong dimension; activations quantized per axis."""
    out = []
    found = _weights(model, op)
    if found is not None and len(found[1].scale) > 1:
        rules, w = found[:2]
        axis = rules.axis
        if w.quantized_dimension != axis:
            channels = _output_channels(rules, w)
            out.append(Finding(
                "per-axis-dimension", OUTPUTS, op.describe(), w.describe(),
                f"{len(w.scale)} scales along dimension {w.quantized_dimension} (spec: per-axis "
                f"along dimension {axis}, the output channels)",
                f"TFLM and CMSIS-NN ignore quantized_dimension and give scale[c] to output "
                f"channel c of {channels}: scales meant for dimension "
                f"{w.quantized_dimension} rescale the wrong channels"))
    for idx in _activations_reported_at(model, op):
        t = model.tensors[idx]
        if t.type == "INT8" and len(t.scale) > 1:
            out.append(Finding(
                "per-axis-activation", OUTPUTS, op.describe(), t.describe(),
                f"activation quantized per axis ({len(t.scale)} scales; spec: activations are "
                f"per-tensor)",
                f"TFLM keeps only scale[0] = {t.scale[0]:.6g} and zero point "
                f"{int(t.zero_point[0])}: every channel but the first is computed at the "
                f"first channel's quantization"))
    return out


def _activations_reported_at(model, op):
    """The activations whose findings `op` reports: its outputs, and the graph inputs it is
    the first to read (so a tensor shared by several ops is reported once)."""
    first_reader = {}
    for o in model.operators:
        for i in o.inputs:
            first_reader.setdefault(i, o.index)
    graph_inputs = [i for i in model.inputs if first_reader.get(i) == op.index]
    return [i for i in dict.fromkeys(op.outputs + graph_inputs)
            if not model.tensors[i].constant]


def _bias_scale(model, op):
    found = _weights(model, op)
    if found is None:
        return []
    _, w, bias, inp = found
    if bias is None or bias.type != "INT32" or bias.data is None or not len(bias.scale) \
            or inp is None or not len(inp.scale):
        return []
    out_t = model.tensors[op.outputs[0]]
    channels = bias.size
    ws = w.scale.astype(np.float32)
    if len(ws) not in (1, channels):
        return []                        # Prepare's scale-count check reports this
    expected = np.broadcast_to(np.float32(inp.scale[0]) * ws, (channels,)).astype(np.float64)
    stated = np.broadcast_to(bias.scale.astype(np.float32), (channels,)).astype(np.float64) \
        if len(bias.scale) in (1, channels) else None
    findings = []
    out_scale = float(np.float32(out_t.scale[0])) if len(out_t.scale) else 0.0
    values = np.abs(bias.data.ravel().astype(np.float64))
    if stated is not None:
        bad = np.abs(stated - expected) > BIAS_SCALE_RTOL * expected
        if bad.any():
            c = int(np.argmax(np.abs(stated / expected - 1)))
            steps = float(np.max(values * np.abs(stated - expected))) / out_scale \
                if out_scale else float("inf")
            kind = OUTPUTS if steps >= 0.5 else NOTE
            findings.append(Finding(
                "bias-scale", kind, op.describe(), bias.describe(),
                f"bias scale {stated[c]:.6g} on channel {c}, input scale x weight scale is "
                f"{expected[c]:.6g} ({int(bad.sum())} of {channels} channels differ; spec: "
                f"bias scale = input0_scale * input1_scale)",
                f"the kernels add the bias as if its scale were input scale x weight scale: "
                f"against the float model it moves outputs by up to {steps:.3g} output steps"))
    zps = sorted({int(z) for z in bias.zero_point if z != 0})
    if zps:
        shift = max(abs(z) for z in zps) * float(np.max(expected)) / out_scale \
            if out_scale else float("inf")
        findings.append(Finding(
            "bias-zero-point", OUTPUTS if shift >= 0.5 else NOTE, op.describe(),
            bias.describe(), f"bias zero point {_listed(zps)} (spec: 0)",
            f"the kernels add the raw int32 bias, ignoring its zero point: outputs move by "
            f"up to {shift:.3g} output steps"))
    return findings


def _fixed_output(model, op):
    operator = _rules(op)
    if operator is None or operator.fixed_output is None:
        return []
    out_t = model.tensors[op.outputs[0]]
    if out_t.type != "INT8" or not len(out_t.scale):
        return []
    scale, zp = operator.fixed_output
    have_scale, have_zp = common.tensor_scale(out_t), common.tensor_zero_point(out_t)
    if have_scale == np.float32(scale) and have_zp == zp:
        return []
    if have_zp != zp:
        effect = (f"TFLM's int8 {op.op} Prepare requires zero point {zp} and refuses the op")
    else:
        effect = (f"the int8 {op.op.lower()} kernel writes its result in steps of 1/256 from "
                  f"-128 whatever the scale: read at scale {float(have_scale):.6g} every "
                  f"output is {float(have_scale) * 256:.4g}x the probability it holds")
    return [Finding("fixed-output-quantization", OUTPUTS, op.describe(), out_t.describe(),
                    f"output scale {float(have_scale):.6g}, zero point {have_zp} (spec: "
                    f"scale 1/256, zero point {zp})", effect)]


def _same_quantization(model, op):
    operator = _rules(op)
    if operator is None or not operator.same_quantization:
        return []
    out_t = model.tensors[op.outputs[0]]
    if out_t.type != "INT8" or not len(out_t.scale):
        return []
    positions = operator.same_quantization
    if positions == EVERY_INPUT:
        positions = range(len(op.inputs))
    findings = []
    out_scale, out_zp = common.tensor_scale(out_t), common.tensor_zero_point(out_t)
    for pos in positions:
        t = _tensor(model, op, pos)
        if t is None or t.type != "INT8" or not len(t.scale) or t.constant:
            continue
        s, zp = common.tensor_scale(t), common.tensor_zero_point(t)
        if s == out_scale and zp == out_zp:
            continue
        findings.append(Finding(
            "same-quantization", OUTPUTS, op.describe(), t.describe(),
            f"input quantized (scale {float(s):.6g}, zero point {zp}), output {out_t.describe()} "
            f"(scale {float(out_scale):.6g}, zero point {out_zp}) (spec: {op.op} keeps its "
            f"input's scale and zero point)",
            f"the kernel moves int8 values without requantizing: read at the output's "
            f"quantization a value v means (v - {out_zp}) x {float(out_scale):.6g} instead "
            f"of (v - {zp}) x {float(s):.6g}"))
    return findings


def _activation_range(model, op):
    """A fused activation whose clamp leaves a single int8 value: the layer is constant."""
    act = op.options.get("FusedActivationFunction") if op.options else None
    if not act:
        return []
    out_t = model.tensors[op.outputs[0]]
    if out_t.type != "INT8" or not len(out_t.scale):
        return []
    lo, hi = common.activation_range(act, out_t, model, op)
    if hi > lo:
        return []
    name = common.ACTIVATIONS[act]
    return [Finding(
        "activation-range", OUTPUTS, op.describe(), out_t.describe(),
        f"fused {name} at output scale {float(common.tensor_scale(out_t)):.6g}, zero point "
        f"{common.tensor_zero_point(out_t)} clamps to [{lo}, {hi}] (spec: activations cover "
        f"the int8 range [-128, 127] with the real zero representable)",
        f"every output of the layer is {hi}: the requantized accumulators are all clamped "
        f"to one value")]


def _granularity(model, op):
    """Per-tensor CONV/DEPTHWISE weights (the spec: per-axis), per-channel FULLY_CONNECTED
    weights (the spec: per-tensor)."""
    found = _weights(model, op)
    if found is None:
        return []
    rules, w = found[:2]
    channels = _output_channels(rules, w)
    if rules.per_axis and len(w.scale) == 1 and channels > 1:
        return [Finding(
            "granularity", NOTE, op.describe(), w.describe(),
            f"one weight scale for {channels} output channels (spec: per-axis along "
            f"dimension {rules.axis})",
            "no speed gain: TFLM's Prepare expands the one scale into per-channel multipliers "
            "and CMSIS-NN runs the same per-channel kernel; per-channel scales would cost "
            "nothing and keep small channels' precision")]
    if not rules.per_axis and len(w.scale) > 1:
        return [Finding(
            "granularity", SPEED, op.describe(), w.describe(),
            f"{len(w.scale)} weight scales, one per output (spec: per-tensor)",
            "CMSIS-NN runs arm_fully_connected_per_channel_s8, loading a multiplier and "
            "shift per output, instead of arm_fully_connected_s8's one pair")]
    return []


def _float_io(model):
    """Float graph inputs/outputs converted on the device by QUANTIZE / DEQUANTIZE."""
    findings = []
    for idx in model.inputs:
        t = model.tensors[idx]
        if t.type != "FLOAT32":
            continue
        for op in model.operators:
            if idx in op.inputs and op.op == "QUANTIZE":
                q = model.tensors[op.outputs[0]]
                findings.append(_float_io_finding(op, t, q, "input", "inference_input_type"))
    for idx in model.outputs:
        t = model.tensors[idx]
        if t.type != "FLOAT32":
            continue
        for op in model.operators:
            if idx in op.outputs and op.op == "DEQUANTIZE":
                q = _tensor(model, op, 0)
                findings.append(_float_io_finding(op, t, q, "output", "inference_output_type"))
    return findings


def _float_io_finding(op, t, q, role, option):
    return Finding(
        "float-io", SPEED, op.describe(), t.describe(),
        f"FLOAT32 graph {role} converted {'to' if role == 'input' else 'from'} int8 on the "
        f"device by {op.op} (an int8 model takes int8 {role}s)",
        f"{op.op} runs TFLM's float reference kernel over {t.size} values (armsim computes it "
        f"on the host: it is not in the cycle totals), and the float tensor takes {t.nbytes} "
        f"bytes of arena where the int8 {q.describe() if q is not None else role} takes "
        f"{t.size}; convert with {option}=tf.int8 to pass int8 directly")


def _listed(values):
    return ", ".join(str(v) for v in values[:4]) + (", ..." if len(values) > 4 else "")


_OP_CHECKS = (_weight_zero_point, _per_axis, _bias_scale, _fixed_output, _same_quantization,
              _activation_range, _granularity)
