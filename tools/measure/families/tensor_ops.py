"""Data movement and comparison: transpose, pad, maximum, minimum (int8)."""
import numpy as np

from ..cgen import (CaseError, EvalTensor, Output, array, buffer, cmsis_harness, dims, need, scratch,
                    tflm_op_harness)
from ._common import TFLM_KERNELS, dim, ints

FAMILIES = ("transpose", "pad", "maximum", "minimum")


def _count(d):
    return max(d["n"], 1) * max(d["h"], 1) * max(d["w"], 1) * max(d.get("c", 1), 1)


def harness(case, function=None, also=None):
    fam = case["family"]
    need(case, "input")
    decls = [array("input", "int8", case["input"])]
    if fam == "transpose":
        need(case, "input_dims", "output_dims", "transpose_params")
        tp = case["transpose_params"]
        n = len(case["input"])
        entry = "arm_transpose_s8"
        decls += [buffer("output", "int8", n),
                  f"static const cmsis_nn_dims input_dims = {dims(case['input_dims'])};\n",
                  f"static const cmsis_nn_dims output_dims = {dims(case['output_dims'])};\n",
                  array("permutations", "uint32", tp["permutations"]),
                  f"static const cmsis_nn_transpose_params transpose_params = "
                  f"{{{tp['num_dims']}, permutations}};\n"]
        call = "arm_transpose_s8(input, {out}, &input_dims, &output_dims, &transpose_params)"
    elif fam == "pad":
        need(case, "input_dims", "pre_pad", "post_pad", "pad_value")
        i, pre, post = case["input_dims"], case["pre_pad"], case["post_pad"]
        n = 1
        for k in "nhwc":
            n *= i[k] + pre[k] + post[k]
        entry = "arm_pad_s8"
        decls += [buffer("output", "int8", n),
                  f"static const cmsis_nn_dims input_dims = {dims(i)};\n",
                  f"static const cmsis_nn_dims pre_pad = {dims(pre)};\n",
                  f"static const cmsis_nn_dims post_pad = {dims(post)};\n"]
        call = f"arm_pad_s8(input, {{out}}, {int(case['pad_value'])}, &input_dims, &pre_pad, &post_pad)"
    elif fam in ("maximum", "minimum"):
        need(case, "input2", "input_1_dims", "input_2_dims", "output_dims")
        n = _count(case["output_dims"])
        entry = f"arm_{fam}_s8"
        decls += [array("input2", "int8", case["input2"]), buffer("output", "int8", n),
                  f"static const cmsis_nn_dims input_1_dims = {dims(case['input_1_dims'])};\n",
                  f"static const cmsis_nn_dims input_2_dims = {dims(case['input_2_dims'])};\n",
                  f"static const cmsis_nn_dims output_dims = {dims(case['output_dims'])};\n"]
        call = f"{entry}(&ctx, input, &input_1_dims, input2, &input_2_dims, {{out}}, &output_dims)"
    else:
        raise CaseError(f"{case.get('case', '?')}: family {fam!r}")
    return cmsis_harness(case, entry, decls, {entry: (scratch(None), call)},
                         [Output("output", "int8", n)], ())


# --- random cases -----------------------------------------------------------------------------
VARIANTS = {"transpose": ("2d", "3d", "4d"),
            "pad": ("hw", "channels", "all_dims"),
            "maximum": ("same_shape", "broadcast_c", "broadcast_hw", "broadcast_batch", "scalar"),
            "minimum": ("same_shape", "broadcast_c", "broadcast_hw", "broadcast_batch", "scalar")}
MAX_ELEMENTS = 3_000


def _dims(rng, size, k):
    return [dim(rng, size, 12) for _ in range(k)]


def random_case(family, variant, size, rng):
    """A transpose / pad / maximum / minimum case (vectors' schema; no output_ref)."""
    keys = "nhwc"
    for _ in range(1000):
        if family == "transpose":
            rank = int(variant[0])
            shape = _dims(rng, size, rank)
            perm = list(range(rank))
            while perm == list(range(rank)):
                perm = [int(p) for p in rng.permutation(rank)]
            if int(np.prod(shape)) > MAX_ELEMENTS:
                continue
            out = [shape[p] for p in perm]
            pad0 = lambda d: {k: (d[i] if i < rank else 0) for i, k in enumerate(keys)}  # noqa: E731
            return {"input_dims": pad0(shape), "output_dims": pad0(out),
                    "transpose_params": {"num_dims": rank, "permutations": perm},
                    "input": ints(rng, -128, 127, int(np.prod(shape)))}
        if family == "pad":
            shape = [int(rng.integers(1, 3))] + _dims(rng, size, 3)
            pads = {"hw": "hw", "channels": "c", "all_dims": "nhwc"}[variant]
            pre = {k: int(rng.integers(0, 3)) if k in pads else 0 for k in keys}
            post = {k: int(rng.integers(0, 3)) if k in pads else 0 for k in keys}
            if pre == post == {k: 0 for k in keys}:
                pre[pads[-1]] = 1
            size_out = int(np.prod([shape[i] + pre[k] + post[k] for i, k in enumerate(keys)]))
            if size_out > MAX_ELEMENTS:
                continue
            return {"input_dims": dict(zip(keys, shape)), "pre_pad": pre, "post_pad": post,
                    "output_dims": {k: shape[i] + pre[k] + post[k] for i, k in enumerate(keys)},
                    "pad_value": int(rng.integers(-128, 128)),
                    "input": ints(rng, -128, 127, int(np.prod(shape)))}
        out = [int(rng.integers(1, 3))] + _dims(rng, size, 3)
        a, b = list(out), list(out)
        if variant == "broadcast_c":
            b[3] = 1
        elif variant == "broadcast_hw":
            a[1] = a[2] = 1
        elif variant == "broadcast_batch":
            out[0] = a[0] = 2
            b[0] = 1
        elif variant == "scalar":
            b = [1, 1, 1, 1]
        if rng.random() < 0.5:
            a, b = b, a
        if int(np.prod(out)) > MAX_ELEMENTS:
            continue
        return {"input_1_dims": dict(zip(keys, a)), "input_2_dims": dict(zip(keys, b)),
                "output_dims": dict(zip(keys, out)),
                "input": ints(rng, -128, 127, int(np.prod(a))),
                "input2": ints(rng, -128, 127, int(np.prod(b)))}
    raise RuntimeError(f"no {variant}/{size} {family} shape within {MAX_ELEMENTS} elements")


def shape_tag(case):
    d = case.get("input_dims") or case["output_dims"]
    return "x".join(str(d[k]) for k in "nhwc" if d.get(k))


# --- TFLM reference kernels (ref_O2) ----------------------------------------------------------
REF_FAMILIES = FAMILIES


def ref_harness(case):
    """TFLM's TRANSPOSE (perm tensor), PAD (paddings tensor; the pad value is the output zero
    point, PadParams as Prepare fills them) and MAXIMUM / MINIMUM Evals (broadcast-slow
    reference kernel)."""
    fam = case["family"]
    keys = "nhwc"
    decls = [array("input", "int8", case["input"])]
    op_data = None
    if fam == "transpose":
        tp = case["transpose_params"]
        rank = tp["num_dims"]
        shape_in = [case["input_dims"][k] for k in keys[:rank]]
        shape_out = [case["output_dims"][k] for k in keys[:rank]]
        n = len(case["input"])
        decls += [array("perm", "int32", tp["permutations"]), buffer("output", "int8", n)]
        tensors = [EvalTensor("input", "int8", shape_in), EvalTensor("perm", "int32", [rank]),
                   EvalTensor("output", "int8", shape_out)]
        inputs, outputs, register, header = [0, 1], [2], "tflite::Register_TRANSPOSE()", "micro_ops.h"
    elif fam == "pad":
        i, pre, post = case["input_dims"], case["pre_pad"], case["post_pad"]
        out = [i[k] + pre[k] + post[k] for k in keys]
        n = 1
        for d in out:
            n *= d
        decls += [array("paddings", "int32", [v for k in keys for v in (pre[k], post[k])]),
                  buffer("output", "int8", n)]
        tensors = [EvalTensor("input", "int8", [i[k] for k in keys]),
                   EvalTensor("paddings", "int32", [4, 2]), EvalTensor("output", "int8", out)]
        image = pre["n"] == post["n"] == pre["c"] == post["c"] == 0
        op_data = ("tflite::OpData", [
            "    op_data.params.left_padding_count = 4;\n",
            "    op_data.params.right_padding_count = 4;\n",
            *(f"    op_data.params.left_padding[{j}] = {pre[k]};\n" for j, k in enumerate(keys)),
            *(f"    op_data.params.right_padding[{j}] = {post[k]};\n" for j, k in enumerate(keys)),
            f"    op_data.params.resizing_category = tflite::ResizingCategory::"
            f"{'kImageStyle' if image else 'kGenericResize'};\n",
            f"    op_data.output_zero_point = {int(case['pad_value'])};\n"])
        inputs, outputs, register, header = [0, 1], [2], "tflite::Register_PAD()", "pad.h"
    else:
        o = case["output_dims"]
        n = o["n"] * o["h"] * o["w"] * o["c"]
        decls += [array("input2", "int8", case["input2"]), buffer("output", "int8", n)]
        tensors = [EvalTensor("input", "int8", [case["input_1_dims"][k] for k in keys]),
                   EvalTensor("input2", "int8", [case["input_2_dims"][k] for k in keys]),
                   EvalTensor("output", "int8", [o[k] for k in keys])]
        inputs, outputs = [0, 1], [2]
        register, header = f"tflite::Register_{fam.upper()}()", "micro_ops.h"
    return tflm_op_harness(case, register, [TFLM_KERNELS + header], decls, tensors, inputs,
                           outputs, op_data, None, [Output("output", "int8", n)])
