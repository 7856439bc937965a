"""Read and validate an int8 .tflite model (flatbuffer bindings from the `tflite` package).

`load(path)` returns a `Model`: tensors (shape, type, quantization, constant data),
operators in execution order (builtin name, version, inputs, outputs, options), graph
inputs and outputs.  Everything is checked before use, like TFLite's verifier and
TFLM's Prepare: flatbuffer well-formedness, buffer bounds and sizes, tensor and opcode
indices, shapes, types, op resolution by builtin code and version.  Any problem is a
`ModelError` whose message is one line naming the file and the op or tensor.
"""
import os
import stat
from dataclasses import dataclass, field

import flatbuffers
import numpy as np
import tflite

from armsim.errors import ModelError
from armsim.operators import get as operator_named

# TensorType code -> (name, numpy dtype or None)
_TYPES = {getattr(tflite.TensorType, n): n for n in dir(tflite.TensorType)
          if not n.startswith("_")}
_DTYPES = {"FLOAT32": np.float32, "FLOAT16": np.float16, "INT32": np.int32,
           "UINT8": np.uint8, "INT64": np.int64, "BOOL": np.bool_, "INT16": np.int16,
           "INT8": np.int8, "FLOAT64": np.float64, "UINT32": np.uint32, "UINT16": np.uint16,
           "UINT64": np.uint64, "INT4": np.int8}
#: sub-byte types TFLite packs (two INT4 values per byte, element 2k in the low nibble of
#: byte k); `Tensor.data` holds the values, `Tensor.packed` the buffer's bytes
_PACKED_BITS = {"INT4": 4}
_BUILTIN_NAMES = {getattr(tflite.BuiltinOperator, n): n for n in dir(tflite.BuiltinOperator)
                  if not n.startswith("_")}

_TFL_IDENTIFIER = b"TFL3"
# a sanity bound on one tensor (64 Mi elements): larger shapes are corrupt for a Cortex-M
MAX_TENSOR_ELEMENTS = 1 << 26
# the largest file `load` reads: one tensor of MAX_TENSOR_ELEMENTS 4-byte values (the widest
# constant an int8 model holds, an int32 bias) -- a sanity bound like the one above
MAX_MODEL_BYTES = 4 * MAX_TENSOR_ELEMENTS
_INT8_RANGE = (-128, 127)


def _packed_bytes(elements, ttype):
    return (elements * _PACKED_BITS[ttype] + 7) // 8


def _unpack_int4(packed, count):
    """The int4 values of TFLite's packed INT4 buffer (low nibble first), as int8."""
    b = packed.astype(np.int16)
    values = np.stack([((b & 0xF) ^ 8) - 8, b >> 4], axis=1).ravel()[:count]
    return values.astype(np.int8)


@dataclass
class Tensor:
    index: int
    name: str
    shape: tuple
    type: str                 # TensorType name: "INT8", "INT32", "FLOAT32", ...
    buffer: int
    data: np.ndarray = None   # constant data (weights, bias, shape operands), else None
    scale: np.ndarray = field(default_factory=lambda: np.zeros(0))
    zero_point: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    quantized_dimension: int = 0
    is_variable: bool = False
    packed: np.ndarray = None  # an INT4 constant's buffer bytes (two values per byte)

    @property
    def dtype(self):
        return _DTYPES.get(self.type)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self):
        if self.type in _PACKED_BITS:
            return _packed_bytes(self.size, self.type)
        return self.size * np.dtype(self.dtype).itemsize

    @property
    def constant(self):
        return self.data is not None

    def describe(self):
        return f"tensor {self.index} '{self.name}'"


@dataclass
class Operator:
    index: int
    op: str                   # builtin name, e.g. "CONV_2D"
    version: int
    inputs: list              # tensor indices, -1 for an omitted optional input
    outputs: list
    options: dict

    def describe(self):
        return f"op {self.index} {self.op}"


@dataclass
class Model:
    path: str
    name: str
    tensors: list
    operators: list
    inputs: list
    outputs: list
    description: str = ""
    raw: bytes = b""          # the flatbuffer itself (ops TFLM computes on the host need it)

    def input_tensors(self):
        return [self.tensors[i] for i in self.inputs]

    def output_tensors(self):
        return [self.tensors[i] for i in self.outputs]


def load(path):
    """Read, validate and return the `Model` at `path`; raises ModelError.

    Only a regular file is read, at most MAX_MODEL_BYTES of it: a directory, a device
    (/dev/zero) or a FIFO is refused from its fstat, and the open itself is non-blocking, so
    a FIFO without a writer cannot hang it."""
    shown = printable(str(path))
    too_big = f"{shown}: larger than {MAX_MODEL_BYTES} bytes, not a microcontroller model"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise ModelError(f"{shown}: no such file") from None
    except (OSError, ValueError) as e:          # ValueError: a NUL byte in the path
        raise ModelError(f"{shown}: cannot read ({getattr(e, 'strerror', None) or e})") \
            from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise ModelError(f"{shown}: is a directory, not a .tflite file")
        if not stat.S_ISREG(mode):
            raise ModelError(f"{shown}: not a regular file (a device, FIFO or socket); "
                             f"give a .tflite file")
        if os.fstat(fd).st_size > MAX_MODEL_BYTES:
            raise ModelError(too_big)
        with os.fdopen(os.dup(fd), "rb") as f:
            buf = f.read(MAX_MODEL_BYTES + 1)
    except OSError as e:
        raise ModelError(f"{shown}: cannot read ({e.strerror or e})") from None
    finally:
        os.close(fd)
    if len(buf) > MAX_MODEL_BYTES:              # it grew while being read
        raise ModelError(too_big)
    return parse(buf, str(path))


def printable(text):
    """`text` with control characters (NUL, newlines, ...) escaped: a corrupted name must
    not break the one-line error that shows it."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def parse(buf, path="<memory>"):
    """Validate and decode the flatbuffer bytes `buf`."""
    name = printable(os.path.basename(path))
    if len(buf) < 8:
        raise ModelError(f"{name}: truncated file ({len(buf)} bytes), not a TFLite flatbuffer")
    if buf[4:8] != _TFL_IDENTIFIER:
        raise ModelError(f"{name}: not a TFLite flatbuffer (file identifier "
                         f"{bytes(buf[4:8])!r}, expected {_TFL_IDENTIFIER!r})")
    root = int.from_bytes(buf[0:4], "little")
    if root + 4 > len(buf):
        raise ModelError(f"{name}: truncated file: root table offset {root} is past the end "
                         f"({len(buf)} bytes)")
    try:
        return _decode(bytearray(buf), path, name)
    except ModelError:
        raise
    except Exception as e:   # the flatbuffer accessors fail on out-of-range offsets
        raise ModelError(f"{name}: corrupt or truncated flatbuffer "
                         f"({type(e).__name__}: {e})") from None


def _decode(buf, path, name):
    _check_offsets(buf, name)
    fb = tflite.Model.GetRootAsModel(buf, 0)
    if fb.SubgraphsLength() < 1:
        raise ModelError(f"{name}: model has no subgraph")
    sg = fb.Subgraphs(0)
    n_buffers = fb.BuffersLength()
    n_tensors = sg.TensorsLength()

    tensors = []
    for i in range(n_tensors):
        t = sg.Tensors(i)
        tname = printable((t.Name() or b"").decode("utf-8", "replace"))
        what = f"{name}: tensor {i} '{tname}'"
        if t.Sparsity() is not None:
            raise ModelError(f"{what}: sparse tensors are not supported")
        shape = tuple(int(d) for d in t.ShapeAsNumpy()) if t.ShapeLength() else ()
        if any(d < 0 for d in shape):
            raise ModelError(f"{what}: negative dimension in shape {list(shape)}")
        ttype = _TYPES.get(t.Type())
        if ttype is None:
            raise ModelError(f"{what}: unknown tensor type code {t.Type()}")
        elements = int(np.prod(shape, dtype=np.float64)) if shape else 1
        if elements > MAX_TENSOR_ELEMENTS:
            raise ModelError(f"{what}: shape {list(shape)} has {elements} elements, more than "
                             f"any microcontroller memory holds (limit {MAX_TENSOR_ELEMENTS})")
        b = t.Buffer()
        if b < 0 or b >= n_buffers:
            raise ModelError(f"{what}: buffer index {b} out of range (model has {n_buffers} "
                             f"buffers)")
        data = _buffer_data(fb, buf, b, what)
        tensor = Tensor(i, tname, shape, ttype, b, is_variable=bool(t.IsVariable()))
        _read_quantization(t.Quantization(), tensor, what)
        if data is not None and len(data):
            dtype = _DTYPES.get(ttype)
            if dtype is None:
                raise ModelError(f"{what}: constant data of type {ttype} is not supported")
            count = int(np.prod(shape, dtype=np.int64))
            need = (_packed_bytes(count, ttype) if ttype in _PACKED_BITS
                    else count * np.dtype(dtype).itemsize)
            if len(data) < need:      # TFLM would read past the buffer
                raise ModelError(f"{what}: buffer {b} holds {len(data)} bytes, shape "
                                 f"{list(shape)} of {ttype} needs {need}")
            # a longer buffer is fine: TFLM points the tensor at its start
            raw = np.frombuffer(bytes(data[:need]), np.int8 if ttype in _PACKED_BITS else dtype)
            if ttype in _PACKED_BITS:
                tensor.packed = raw
                tensor.data = _unpack_int4(raw, count).reshape(shape)
            else:
                tensor.data = raw.reshape(shape)
        tensors.append(tensor)

    def check_index(idx, what, optional):
        if idx == -1 and optional:
            return
        if not 0 <= idx < n_tensors:
            raise ModelError(f"{name}: {what}: tensor index {idx} out of range (subgraph has "
                             f"{n_tensors} tensors)")

    inputs = [int(i) for i in sg.InputsAsNumpy()] if sg.InputsLength() else []
    outputs = [int(i) for i in sg.OutputsAsNumpy()] if sg.OutputsLength() else []
    for i in inputs:
        check_index(i, "subgraph input", False)
    for i in outputs:
        check_index(i, "subgraph output", False)
    if not inputs or not outputs:
        raise ModelError(f"{name}: subgraph has no {'inputs' if not inputs else 'outputs'}")

    n_codes = fb.OperatorCodesLength()
    operators = []
    for k in range(sg.OperatorsLength()):
        o = sg.Operators(k)
        ci = o.OpcodeIndex()
        if ci >= n_codes:
            raise ModelError(f"{name}: op {k}: opcode index {ci} out of range (model has "
                             f"{n_codes} operator codes)")
        code = fb.OperatorCodes(ci)
        builtin = builtin_code(code)
        opname = _BUILTIN_NAMES.get(builtin)
        if builtin == tflite.BuiltinOperator.CUSTOM:
            custom = printable((code.CustomCode() or b"?").decode("utf-8", "replace"))
            raise ModelError(f"{name}: op {k}: custom op '{custom}' is not supported")
        if opname is None:
            raise ModelError(f"{name}: op {k}: unknown builtin op code {builtin}")
        # an op without a module in armsim.operators still loads: TFLM computes it on the
        # host (armsim.pipeline.tflm_host), and its options are TFLM's business
        operator = operator_named(opname)
        version = code.Version()
        op_in = [int(i) for i in o.InputsAsNumpy()] if o.InputsLength() else []
        op_out = [int(i) for i in o.OutputsAsNumpy()] if o.OutputsLength() else []
        for i in op_in:
            check_index(i, f"op {k} {opname} input", True)
        for i in op_out:
            check_index(i, f"op {k} {opname} output", False)
        if not op_out:
            raise ModelError(f"{name}: op {k} {opname}: no outputs")
        operators.append(Operator(k, opname, version, op_in, op_out,
                                  _options(o, operator, f"{name}: op {k} {opname}")
                                  if operator is not None else {}))
    desc = (fb.Description() or b"").decode("utf-8", "replace")
    model = Model(path, os.path.splitext(name)[0] if name != "model.tflite"
                  else os.path.basename(os.path.dirname(os.path.abspath(path))) or name,
                  tensors, operators, inputs, outputs, desc, bytes(buf))
    _check_graph(model, name)
    return model


def _check_offsets(buf, name):
    """The root table and its vtable must lie inside the buffer (the verifier's first step)."""
    n = len(buf)
    root = int.from_bytes(buf[0:4], "little")
    if root + 4 > n:
        raise ModelError(f"{name}: truncated file")
    vt = root - int.from_bytes(buf[root:root + 4], "little", signed=True)
    if not 0 <= vt <= n - 4:
        raise ModelError(f"{name}: corrupt flatbuffer (vtable outside the file)")
    vt_size = int.from_bytes(buf[vt:vt + 2], "little")
    if vt + vt_size > n:
        raise ModelError(f"{name}: truncated file (vtable runs past the end)")


def builtin_code(code):
    """TFLM's GetBuiltinCode (schema_utils.cc): max(builtin_code, deprecated_builtin_code) of
    the raw fields.  The `tflite` bindings' BuiltinCode() already substitutes the deprecated
    code below 127, so a MAX_POOL_2D (17) with a stray deprecated code 1 would read as
    AVERAGE_POOL_2D; the int32 field is read directly here (absent: 0, its default)."""
    field = code._tab.Offset(10)                     # OperatorCode.builtin_code
    raw = code._tab.Get(flatbuffers.number_types.Int32Flags, field + code._tab.Pos) \
        if field else 0
    return max(raw, code.DeprecatedBuiltinCode())


def _wrap_int32(v):
    """static_cast<int32_t> of an int64 (TFLM's TfLiteQuantizationParams.zero_point)."""
    return (int(v) + 2**31) % 2**32 - 2**31


def _read_quantization(q, tensor, what):
    """Quantization as TFLM's micro_allocator.cc reads it: only a tensor with both a scale
    and a zero point is quantized (a scale alone is ignored); the zero points are int32
    (truncated from the schema's int64); with fewer zero points than scales, every channel
    takes the first.  Per-channel shapes are checked by the ops that use them (the filter's
    in Conv/DepthwiseConv Prepare), never here: TFLM ignores a bias's quantized_dimension
    (person_detect's bias has a wrong one)."""
    if q is None or not q.ScaleLength() or not q.ZeroPointLength():
        return
    scales = q.ScaleAsNumpy().astype(np.float64)
    zps = np.array([_wrap_int32(z) for z in q.ZeroPointAsNumpy()], np.int64)
    if len(zps) != len(scales):
        zps = np.full(len(scales), zps[0], np.int64)
    if tensor.type == "INT8":
        lo, hi = _INT8_RANGE
        bad = zps[(zps < lo) | (zps > hi)]
        if len(bad):
            raise ModelError(f"{what}: zero point {int(bad[0])} outside the int8 range "
                             f"[{lo}, {hi}] (int8 quantization spec)")
    tensor.scale, tensor.zero_point = scales, zps
    tensor.quantized_dimension = q.QuantizedDimension()


def _buffer_data(fb, buf, b, what):
    """A buffer's inline data, as TFLM's GetFlatbufferTensorBuffer reads it: `data` only.
    TFLM ignores `offset`/`size` (data stored after the flatbuffer), so does armsim: such a
    tensor has no constant data there either."""
    bf = fb.Buffers(b)
    if bf is None:
        return None
    if bf.DataIsNone() or bf.DataLength() == 0:
        return None
    # the vector's extent: its start and length must lie inside the file
    o = bf._tab.Offset(4)
    start = bf._tab.Vector(o)
    length = bf.DataLength()
    if start < 0 or start + length > len(buf):
        raise ModelError(f"{what}: buffer {b} ({length} bytes at {start}) runs past the end "
                         f"of the file ({len(buf)} bytes)")
    return buf[start:start + length]


def _options(o, operator, what):
    """The operator's builtin options as {getter name: value}, schema defaults if absent."""
    cls_name = operator.options
    if cls_name is None:
        return {}
    table = o.BuiltinOptions()
    if table is not None and o.BuiltinOptionsType() != getattr(tflite.BuiltinOptions, cls_name):
        # options of another type: TFLM's builtin_options_as_<type>() is null and its parser
        # keeps the defaults, as for absent options
        table = None
    opts = getattr(tflite, cls_name)()
    if table is None:
        # absent options: the schema defaults (a fresh table reads its defaults)
        b = flatbuffers.Builder(16)
        getattr(tflite, cls_name + "Start")(b)
        b.Finish(getattr(tflite, cls_name + "End")(b))
        empty = b.Output()
        opts.Init(empty, int.from_bytes(empty[0:4], "little"))
    else:
        opts.Init(table.Bytes, table.Pos)
    out = {f: getattr(opts, f)() for f in operator.option_fields}
    for f in operator.option_lists:
        present = table is not None and getattr(opts, f + "Length")()
        out[f] = [int(x) for x in getattr(opts, f + "AsNumpy")()] if present else []
    return out


def _check_graph(model, name):
    """Every non-constant op input is produced earlier or is a graph input/variable."""
    available = set(model.inputs)
    for t in model.tensors:
        if t.constant or t.is_variable:
            available.add(t.index)
    for op in model.operators:
        for i in op.inputs:
            if i >= 0 and i not in available:
                t = model.tensors[i]
                raise ModelError(f"{name}: {op.describe()}: input {t.describe()} is neither "
                                 f"constant, a graph input, nor produced by an earlier op")
        available.update(op.outputs)
    for i in model.outputs:
        if i not in available:
            raise ModelError(f"{name}: graph output {model.tensors[i].describe()} is never "
                             f"produced")
