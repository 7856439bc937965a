"""The `reference` path (ports of TFLM's reference_integer_ops kernels on the machine):
bit-exact on every shared case, traced run == counted run, counts that move with the work."""
import copy
import json
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu.kernel import Tracer
from armsim.pipeline.harness import run_case
from armsim.kernels.families import oracle
from armsim.pipeline.build import Build

from conftest import REFERENCE, SHARED, VECTORS, expected_output, shared_cases

CASES = shared_cases(VECTORS) + shared_cases(REFERENCE)


def _load(path):
    return json.loads(Path(path).read_text())


def test_cases_found():
    assert len(CASES) >= 60


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_reference_matches_output_ref(path):
    case = _load(path)
    result = run_case(case, Build("reference"))
    ref = expected_output(case)
    np.testing.assert_array_equal(result.output, ref)
    np.testing.assert_array_equal(result.output, oracle(case))
    assert result.kernel_path and result.kernel_path[0].startswith("tflite::")
    assert result.instructions > 0


SMALL = ["basic__convolve", "depthwise_2", "fully_connected_w_zp", "fc_per_ch", "avgpooling_2",
         "maxpooling_1", "softmax__rows_0_1", "add__elements_0_85", "mul__elements_0_107"]


@pytest.mark.parametrize("name", SMALL)
def test_traced_equals_counted(name):
    case = _load(SHARED / "cmsis_nn_vectors" / f"{name}.json")
    fast = run_case(case, Build("reference"))
    tracer = Tracer()
    traced = run_case(case, Build("reference"), tracer=tracer)
    np.testing.assert_array_equal(fast.output, traced.output)
    assert fast.counts() == traced.counts()
    assert len(tracer.records) == fast.instructions


def test_counts_scale_with_work():
    """Doubling the output channels of a conv roughly doubles its instructions."""
    case = _load(SHARED / "reference" / "conv1x1_8x8x16_o32.json")
    small = copy.deepcopy(case)
    oc = 16
    small["filter_dims"]["n"] = oc
    small["output_dims"]["c"] = oc
    small["weights"] = case["weights"][:oc * 16]
    for k in ("bias", "output_mult", "output_shift"):
        small[k] = case[k][:oc]
    small["output_ref"] = list(np.asarray(case["output_ref"]).reshape(-1, 32)[:, :oc].ravel())
    a = run_case(small, Build("reference"))
    b = run_case(case, Build("reference"))
    np.testing.assert_array_equal(a.output, np.asarray(small["output_ref"], np.int8))
    assert 1.8 < b.instructions / a.instructions < 2.2


def test_softmax_counts_follow_the_data():
    """exp_on_negative_values' barrel shifter and the diff_min test are data dependent."""
    case = _load(SHARED / "cmsis_nn_vectors" / "softmax_invalid_diff_min.json")
    skipped = run_case(case, Build("reference"))
    valid = copy.deepcopy(case)
    valid["diff_min"] = -(2**31) + 1
    computed = run_case(valid, Build("reference"))
    assert computed.instructions > skipped.instructions
    np.testing.assert_array_equal(computed.output, oracle(valid))


# --- counts against the measured TFLM reference build (../shared/models/*/measured.json) --------
# Each case is built from the model's own operator (tensor shapes and builtin options, read with
# the `tflite` flatbuffer package) with random data, and compared with what the measured
# firmware spent inside the kernel's functions (functions_top; the Eval glue around the kernel
# -- GetEvalInput, GetTensorShape, params structs, ~100-450 instructions -- is not ported).

import tflite  # noqa: E402

MODELS = SHARED / "models"
KERNEL_FUNCTIONS = {
    "conv": ("tflite::reference_integer_ops::ConvPerChannel", "tflite::MultiplyByQuantizedMultiplier"),
    "depthwise_conv": ("tflite::reference_integer_ops::DepthwiseConvPerChannel",
                       "tflite::MultiplyByQuantizedMultiplier"),
    "fully_connected": ("tflite::reference_integer_ops::FullyConnected<signed char, signed char, signed char, long>",
                        "tflite::MultiplyByQuantizedMultiplier"),
    "avgpool": ("tflite::(anon)::AverageEval",),
    "elementwise_add": ("tflite::EvalAddQuantized",),
}


def _same_padding(size, stride, filt, dilation, padding):
    out = (size + stride - 1) // stride if padding == tflite.Padding.SAME else \
        (size - (filt - 1) * dilation - 1) // stride + 1
    total = (out - 1) * stride + (filt - 1) * dilation + 1 - size
    return out, max(total // 2, 0)


def _model_case(model, index, seed=0):
    """A vectors-schema case with the shapes and options of operator `index` of `model`."""
    rng = np.random.default_rng(seed)
    m = tflite.Model.GetRootAsModel((MODELS / model / "model.tflite").read_bytes(), 0)
    sg = m.Subgraphs(0)
    op = sg.Operators(index)
    code = m.OperatorCodes(op.OpcodeIndex())
    builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
    shapes = [sg.Tensors(op.Inputs(j)).ShapeAsNumpy().tolist() for j in range(op.InputsLength())
              if op.Inputs(j) >= 0]
    out_shape = sg.Tensors(op.Outputs(0)).ShapeAsNumpy().tolist()
    table = op.BuiltinOptions()
    act = {"min": -128, "max": 127}

    def quant(n):
        return (rng.integers(1 << 30, (1 << 31) - 1, n).tolist(), rng.integers(-10, -5, n).tolist())

    if builtin in (tflite.BuiltinOperator.CONV_2D, tflite.BuiltinOperator.DEPTHWISE_CONV_2D):
        dw = builtin == tflite.BuiltinOperator.DEPTHWISE_CONV_2D
        o = tflite.DepthwiseConv2DOptions() if dw else tflite.Conv2DOptions()
        o.Init(table.Bytes, table.Pos)
        (n, h, w, c), (fo, fh, fw, fc) = shapes[0], shapes[1]
        oh, ph = _same_padding(h, o.StrideH(), fh, o.DilationHFactor(), o.Padding())
        ow, pw = _same_padding(w, o.StrideW(), fw, o.DilationWFactor(), o.Padding())
        oc = out_shape[3]
        mult, shift = quant(oc)
        params = {"input_offset": 128, "output_offset": -128,
                  "stride": {"h": o.StrideH(), "w": o.StrideW()}, "padding": {"h": ph, "w": pw},
                  "dilation": {"h": o.DilationHFactor(), "w": o.DilationWFactor()},
                  "activation": act}
        case = {"family": "depthwise_conv" if dw else "conv",
                "input_dims": {"n": n, "h": h, "w": w, "c": c},
                "filter_dims": {"n": 1 if dw else fo, "h": fh, "w": fw, "c": oc if dw else fc},
                "output_dims": {"n": n, "h": oh, "w": ow, "c": oc},
                "weights": rng.integers(-127, 128, fo * fh * fw * fc).tolist(),
                "bias": rng.integers(-5000, 5000, oc).tolist(), "bias_is_null": False,
                "output_mult": mult, "output_shift": shift,
                "input": rng.integers(-128, 128, n * h * w * c).tolist()}
        if dw:
            case["dw_conv_params"] = dict(params, ch_mult=oc // c)
        else:
            case["groups"] = c // fc
            case["conv_params"] = params
    elif builtin == tflite.BuiltinOperator.FULLY_CONNECTED:
        (out_c, depth) = shapes[1]
        batches = int(np.prod(shapes[0])) // depth
        mult, shift = quant(1)
        case = {"family": "fully_connected",
                "input_dims": {"n": batches, "h": 1, "w": 1, "c": depth},
                "filter_dims": {"n": depth, "h": 1, "w": 1, "c": out_c},
                "output_dims": {"n": batches, "h": 1, "w": 1, "c": out_c},
                "fc_params": {"input_offset": 128, "filter_offset": 0, "output_offset": -128,
                              "activation": act},
                "quant_params": {"per_channel": False, "multiplier": mult[0], "shift": shift[0]},
                "weights": rng.integers(-127, 128, out_c * depth).tolist(),
                "bias": rng.integers(-5000, 5000, out_c).tolist(), "bias_is_null": False,
                "input": rng.integers(-128, 128, batches * depth).tolist()}
    elif builtin == tflite.BuiltinOperator.AVERAGE_POOL_2D:
        o = tflite.Pool2DOptions()
        o.Init(table.Bytes, table.Pos)
        n, h, w, c = shapes[0]
        oh, ph = _same_padding(h, o.StrideH(), o.FilterHeight(), 1, o.Padding())
        ow, pw = _same_padding(w, o.StrideW(), o.FilterWidth(), 1, o.Padding())
        case = {"family": "avgpool", "input_dims": {"n": n, "h": h, "w": w, "c": c},
                "filter_dims": {"n": 1, "h": o.FilterHeight(), "w": o.FilterWidth(), "c": 1},
                "output_dims": {"n": n, "h": oh, "w": ow, "c": c},
                "pool_params": {"stride": {"h": o.StrideH(), "w": o.StrideW()},
                                "padding": {"h": ph, "w": pw}, "activation": act},
                "input": rng.integers(-128, 20, n * h * w * c).tolist()}
    elif builtin == tflite.BuiltinOperator.ADD:
        size = int(np.prod(out_shape))
        case = {"family": "elementwise_add", "input_1_offset": 5, "input_1_mult": 1623821475,
                "input_1_shift": -1, "input_2_offset": -3, "input_2_mult": 1073741824,
                "input_2_shift": 0, "left_shift": 20, "out_offset": -10, "out_mult": 1960000000,
                "out_shift": -19, "out_activation_min": -128, "out_activation_max": 127,
                "block_size": size, "input": rng.integers(-128, 128, size).tolist(),
                "input2": rng.integers(-128, 128, size).tolist()}
    else:
        raise AssertionError(f"{model} op {index}: builtin {builtin} not covered here")
    case["case"] = f"{model}_op{index}"
    return case


MODEL_OPS = [("kws", 0, 0.02), ("kws", 1, 0.02), ("kws", 2, 0.02), ("kws", 9, 0.02),
             ("kws", 11, 0.02), ("ic", 0, 0.02), ("ic", 1, 0.02), ("ic", 3, 0.06),
             ("ic", 12, 0.02), ("ic", 14, 0.02), ("vww", 0, 0.02), ("vww", 1, 0.02),
             ("vww", 2, 0.02), ("vww", 27, 0.02), ("vww", 29, 0.02), ("ad", 0, 0.02),
             ("ad", 5, 0.02)]


@pytest.mark.parametrize("model,index,tolerance", MODEL_OPS)
def test_counts_match_measured_reference_kernels(model, index, tolerance):
    case = _model_case(model, index)
    measured = json.loads((MODELS / model / "measured.json").read_text())
    op = measured["paths"]["reference"]["ops"][index]
    kernel = sum(op["functions_top"][name] for name in KERNEL_FUNCTIONS[case["family"]])
    r = run_case(case, Build("reference"))
    np.testing.assert_array_equal(r.output, oracle(case))
    assert abs(r.instructions / kernel - 1) <= tolerance, (r.instructions, kernel)
