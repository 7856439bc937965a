"""STRIDED_SLICE: TFLM's Register_STRIDED_SLICE() (strided_slice.cc,
strided_slice_common.cc), the reference kernel on every path.

Prepare (StridedSlicePrepare): four inputs, one output, input rank <= 4, begin/end/strides
constant (read as int32 whatever their type), ellipsis_mask and new_axis_mask ignored
(set to 0), and CheckOutputSize: for each axis a non-zero stride, begin = StartForAxis,
end = StopForAxis (begin + 1 under shrink_axis_mask), dim = max(0, ceil((end - begin) /
(float)stride)), every non-shrunk dim equal to the output's and the output's rank their
count.  Eval pads the params to 5 dims and derives start/stop with StridedSliceStartForAxis
/ EndForAxis (strided_slice_logic.h); armsim derives them here, the port runs the loops.
"""
import math

import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, element_type,
                                     simulated_elem)

MAX_DIM = 4                     # strided_slice_common.cc kMaxDim
INT_MIN, INT_MAX = -2**31, 2**31 - 1
TYPES = ("FLOAT32", "INT8", "INT16", "INT32", "BOOL")   # StridedSliceEval's switch


def _clamp(v, lo, hi):
    """strided_slice::Clamp: hi first, then lo."""
    return hi if hi < v else max(v, lo)


def _int32_values(model, op, t, what, n):
    """GetTensorData<int32_t>(t)[0..n): the constant's bytes read as int32."""
    if t.data is None:
        raise error(model, op, f"{what} {t.describe()} is not constant (TFLM requires it)")
    raw = np.frombuffer(np.ascontiguousarray(t.data).tobytes(), np.int32)
    if raw.size < n:
        raise error(model, op, f"{what} {t.describe()} has {raw.size} int32 values for "
                               f"{n} dims")
    return [int(v) for v in raw[:n]]


def _start_for_axis(begin, stride, begin_mask, axis, size):
    """strided_slice::StartForAxis (Prepare's CheckOutputSize)."""
    if size == 0:
        return 0
    start = begin[axis]
    if begin_mask & (1 << axis):
        start = INT_MIN if stride[axis] > 0 else INT_MAX
    if start < 0:
        start += size
    return _clamp(start, 0, size) if stride[axis] > 0 else _clamp(start, -1, size - 1)


def _stop_for_axis(end, stride, end_mask, shrink_mask, axis, size, start):
    """strided_slice::StopForAxis (Prepare's CheckOutputSize)."""
    if size == 0:
        return 0
    if shrink_mask & (1 << axis):
        return start + 1
    stop = end[axis]
    if end_mask & (1 << axis):
        stop = INT_MAX if stride[axis] > 0 else INT_MIN
    if stop < 0:
        stop += size
    return _clamp(stop, 0, size) if stride[axis] > 0 else _clamp(stop, -1, size - 1)


def _eval_bounds(begin, end, stride, masks, shape):
    """StridedSlicePadIndices to 5 dims, then StridedSliceStartForAxis / EndForAxis."""
    begin_mask, end_mask, shrink_mask = masks
    pad = 5 - len(shape)
    begin, end, stride = [0] * pad + begin, [1] * pad + end, [1] * pad + stride
    begin_mask = (begin_mask << pad) | ((1 << pad) - 1)
    end_mask = (end_mask << pad) | ((1 << pad) - 1)
    shrink_mask <<= pad
    ext = [1] * pad + list(shape)
    starts, stops = [], []
    for axis in range(5):
        size, s = ext[axis], stride[axis]
        start = begin[axis] + (size if begin[axis] < 0 else 0)
        start = _clamp(start, 0, size) if s > 0 else _clamp(start, -1, size - 1)
        if begin_mask & (1 << axis):
            start = 0 if s > 0 else size - 1
        if shrink_mask & (1 << axis):
            stop = start if start >= size else start + 1
        else:
            stop = end[axis] + (size if end[axis] < 0 else 0)
            stop = _clamp(stop, 0, size) if s > 0 else _clamp(stop, -1, size - 1)
            if end_mask & (1 << axis):
                stop = size if s > 0 else -1
        starts.append(start)
        stops.append(stop)
    return ext, starts, stops, stride


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    rank = len(inp.shape)
    if rank > MAX_DIM:
        raise error(model, op, f"input {inp.describe()} has rank {rank}: TFLM's "
                               f"STRIDED_SLICE takes at most {MAX_DIM}")
    begin = _int32_values(model, op, input_tensor(model, op, 1, "begin"), "begin", rank)
    end = _int32_values(model, op, input_tensor(model, op, 2, "end"), "end", rank)
    stride = _int32_values(model, op, input_tensor(model, op, 3, "strides"), "strides", rank)
    o = op.options
    masks = (o["BeginMask"], o["EndMask"], o["ShrinkAxisMask"])
    shape = []                                    # CheckOutputSize
    for axis in range(rank):
        if stride[axis] == 0:
            raise error(model, op, f"stride of axis {axis} is 0 (TFLM: stride value has to "
                                   f"be non-zero)")
        b = _start_for_axis(begin, stride, masks[0], axis, inp.shape[axis])
        e = _stop_for_axis(end, stride, masks[1], masks[2], axis, inp.shape[axis], b)
        if masks[2] & (1 << axis):
            e = b + 1
        else:
            dim = math.ceil(float(np.float32(e - b) / np.float32(stride[axis])))
            shape.append(max(dim, 0))
    if list(out.shape) != shape:
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, TFLM's "
                               f"Prepare computes {shape}")
    if out.type not in TYPES:
        raise error(model, op, f"output {out.describe()} is {out.type}: TFLM's "
                               f"STRIDED_SLICE takes {', '.join(TYPES)}")
    elem = simulated_elem(out, [inp], "output")
    ext, starts, stops, strides = _eval_bounds(begin, end, stride, masks, inp.shape)
    counts = [len(range(a, b, s)) for a, b, s in zip(starts, stops, strides)]
    if int(np.prod(counts, dtype=np.int64)) != out.size:
        raise error(model, op, f"the kernel's slice has {int(np.prod(counts))} elements, "
                               f"output {out.describe()} {out.size} (TFLM would write "
                               f"outside it)")
    case = {"case": case_tag(model, op), "family": "strided_slice", "rank": rank,
            "ext_shape": ext, "start": starts, "stop": stops, "strides": strides,
            "elem": elem}
    return Step(op.index, op.op, "strided_slice", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import strided_slice
    return strided_slice.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="STRIDED_SLICE", max_version=8, prepare=prepare,
    input_counts=(4,), output_counts=(1,),   # strided_slice_common.cc StridedSlicePrepare
    options="StridedSliceOptions",
    option_fields=("BeginMask", "EndMask", "EllipsisMask", "NewAxisMask", "ShrinkAxisMask"),
    # StridedSliceEval: GetEvalInput, GetEvalOutput, the type switch, two GetTensorShape;
    # body an estimate
    glue={"reference": EvalGlue((10, 10), (1, 1, 2, 0))},
    op_data=(24, 84, 84),      # TfLiteStridedSliceParams; StridedSliceParams (user_data)
    run_reference=run_reference,
)
