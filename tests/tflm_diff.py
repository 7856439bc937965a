"""Differential testing against TFLite Micro: structure-aware model mutants, each run by armsim's
CLI (in process) and by TFLM's Python interpreter (in a forked child, so a crash or a hang of
TFLM is an outcome, not the end of the run).  Used by tests/pipeline/test_fuzz_tflm.py (a few hundred
seeded mutants) and benchmarks/fuzz_campaign.py (thousands).

A mutant is a shared model decoded with the object API of the schema TFLM ships
(`schema_py_generated.ModelT`), changed in one place -- a shape, a type, quantization, an
operator code, a buffer, options, an operator's inputs -- and packed again, or the packed
bytes with a few bytes overwritten.
"""
import faulthandler
import os
import pickle
import re
import select
import signal
import struct
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import flatbuffers
import numpy as np
import tflite
from click.testing import CliRunner

from armsim.cli.main import main

# TFLM's Python interpreter sizes its arena from the model (10x its bytes); a fixed, generous
# arena keeps "arena too small" from passing for a refusal of the model.
TFLM_ARENA_BYTES = 64 << 20
MAX_INPUT_ELEMENTS = 1 << 20

# Models armsim refuses although TFLM runs them: int8-spec violations where TFLM's result is
# undefined behaviour or an artefact, refused by armsim in one line naming the tensor / op and
# the rule.  (pattern in armsim's message, why the refusal is right)
DOCUMENTED_REFUSALS = (
    (r"corrupt or truncated flatbuffer",
     "an offset pointing outside the file: TFLM does not verify the flatbuffer and reads "
     "outside it"),
    (r"multiplier (nan|-?inf) is not finite",
     "a NaN or infinite scale: TFLM converts NaN / inf to an integer multiplier (undefined "
     "behaviour in C++)"),
    (r"an empty dimension",
     "weights with a zero dimension: TFLM's FULLY_CONNECTED divides the input by a depth of "
     "0; CMSIS-NN's conv / depthwise wrappers return ARM_CMSIS_NN_ARG_ERROR, which TFLM only "
     "DCHECKs (output unwritten), while its reference DEPTHWISE_CONV_2D reads H x W x C "
     "weights of a tensor declared empty"),
    (r"runs past the end of the file",
     "a buffer whose length runs past the end of the file (a corrupt flatbuffer): TFLM does "
     "not verify the file and reads the tensor's bytes from wherever the vector starts"),
    (r"buffer index -?\d+ out of range",
     "a tensor's buffer index beyond the model's buffers: TFLM indexes the vector unchecked "
     "(flatbuffers' bounds check is an assert, off in release builds) and reads a table "
     "outside it"),
    (r"has \d+ values for \d+ output channels",
     "a bias with fewer values than output channels: TFLM reads past the bias tensor"),
    (r"more than any microcontroller memory holds",
     "a tensor of more elements than any microcontroller memory holds (a corrupt shape): "
     "refused before anything is sized by it; TFLM's kernels may index only part of it (a "
     "constant bias is read up to the output channels)"),
    (r"negative dimension in shape",
     "a negative dimension: TFLM's element counts go negative"),
    (r"not the broadcast of",
     "an ADD/MUL output whose shape is not its inputs' broadcast: TFLM's kernels index "
     "outside a tensor (and read uninitialised memory, differently each run)"),
    (r"option DepthMultiplier = \d+ with \d+ input channels does not give",
     "a depth_multiplier that contradicts the shapes: TFLM's kernels loop over the option "
     "and read / write outside the tensors"),
    (r"spans \d+ pixels, beyond int32",
     "a dilation whose filter span overflows int: TFLM's padding computation fails "
     "silently (padding 0) and its kernels' offsets overflow"),
    (r"DEQUANTIZE: output .* values\), input",
     "a DEQUANTIZE output of another size: TFLM writes the input's count into it"),
    (r"needs a left shift of \d+, beyond",
     "a requantization multiplier of 2^31 or more: MultiplyByQuantizedMultiplier's "
     "1 << shift is undefined beyond 31 (x86 masks the count, a Cortex-M gives 0)"),
    (r"zero point -?\d+ outside the int8 range",
     "an int8 zero point outside [-128, 127]: TFLM's reference kernels take any int32, "
     "CMSIS-NN packs offsets into 16-bit halves, so the paths would disagree"),
    (r"buffer \d+ holds \d+ bytes, shape .* needs",
     "a constant buffer smaller than its shape: TFLM reads past its end"),
    (r"is neither constant, a graph input, nor produced",
     "an op input nobody writes (e.g. a buffer emptied): TFLM reads uninitialised arena"),
    (r"Prepare computes",
     "an output shape that differs from the one Prepare derives: TFLM's conv/pool Prepare "
     "does not check it and its kernels then index outside the output tensor"),
    (r"has no quantization parameters",
     "an int8 activation without scale and zero point: TFLM reads scale 0 (divisions by 0)"),
    (r"must be constant",
     "a non-constant bias / paddings / axis: TFLM reads an arena tensor nobody wrote"),
    (r"not constant",
     "non-constant weights: TFLM reads an arena tensor nobody wrote"),
    (r"option \w+ = -?\d+ must be >= 1",
     "a stride, dilation, filter size or depth multiplier below 1: TFLM divides by it or "
     "loops without end"),
    (r"unknown padding code",
     "a padding code other than SAME/VALID: TFLM's ComputePadding leaves the output size 0"),
    (r"must be a constant INT32 tensor",
     "a bias of another type: TFLM reinterprets its bytes as int32"),
    (r"weights .* are (?!INT8)\w+; armsim needs int8 weights",
     "weights of another type: TFLM reinterprets their bytes as int8"),
    (r"non-zero zero point",
     "int8 weights with a zero point: the int8 spec requires 0, TFLM's kernels ignore it"),
    (r"not a multiple|not divisible|do not fit|does not match output|inputs sum to",
     "operand shapes that contradict each other: TFLM's kernels then read or write out "
     "of bounds"),
    (r"holds \d+ values, \d+ batches|input .* of \d+ values is not a multiple",
     "a FULLY_CONNECTED input whose size is not batches x depth: TFLM reads past it"),
    (r"has shape \[.*\], expected \d+ dimensions|expected \[\.\.\., \d+\]",
     "an operand of the wrong rank: TFLM indexes dims it does not have"),
    (r"broadcasting .* is not supported",
     "broadcast ADD/MUL: armsim's CMSIS-NN ports are elementwise (TFLM's reference "
     "broadcasts)"),
    (r"elements, output|output shape \[.*\], (paddings|mean) give",
     "an output of another size than its input implies: TFLM copies past one of them"),
    (r"input and output (types|shapes) differ",
     "an op whose output type/shape contradicts its input"),
    (r"axis -?\d+ out of range",
     "an axis outside the tensor's rank: TFLM indexes dims it does not have"),
    (r"out of range for rank",
     "an axis outside the tensor's rank: TFLM indexes dims it does not have"),
    (r"is (INT16|INT32|UINT8|INT64|FLOAT32|FLOAT16|BOOL|FLOAT64|\w+) \(.*\): armsim runs "
     r"int8-quantized models only",
     "a tensor of another type than int8 in an int8 op: outside armsim's int8 scope"),
    (r"is [A-Z0-9]+; only int8 -> float32 DEQUANTIZE",
     "a DEQUANTIZE to another type than float32: outside armsim's int8 scope"),
    (r"constant data of type",
     "constant data of a type armsim has no dtype for"),
    (r"\] makes? it \[",
     "a RESIZE_* / BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND output of another shape than its "
     "size / block shape and crops or paddings give: TFLM never checks it, its kernels write "
     "past the output or leave part of it unwritten"),
    (r"TFLM's kernel reads (two|INT32)",
     "a resize size of one value, or a block shape / crops / paddings of another type or "
     "shape: TFLM's kernels read int32 values past them"),
    (r"block shape \[.*\] must be >= 1",
     "a block size below 1 or negative crops / paddings: TFLM divides by 0 or indexes "
     "outside the tensors"),
    (r"sparse tensors",
     "sparse tensors: TFLM has no sparse kernels for these ops"),
)


@dataclass
class Outcome:
    kind: str                       # ok | refused | crashed | hung | traceback | multiline
    outputs: list = field(default_factory=list)
    message: str = ""


def documented_refusal(message):
    """The reason armsim may refuse a model TFLM runs, or None."""
    for pattern, why in DOCUMENTED_REFUSALS:
        if re.search(pattern, message):
            return why
    return None


# --- running TFLM -------------------------------------------------------------------------

def in_child(work, timeout):
    """Run `work()` -> Outcome in a forked child, its stdout/stderr captured: a crash or a
    hang of the child is an Outcome ("crashed" / "hung"), never the end of the caller."""
    with tempfile.TemporaryFile() as err:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:                               # child: never returns
            try:
                os.close(r)
                faulthandler.disable()             # a crash is reported by its signal
                os.dup2(err.fileno(), 2)
                os.dup2(err.fileno(), 1)
                blob = pickle.dumps(work())
                with os.fdopen(w, "wb") as f:
                    f.write(blob)
            finally:
                os._exit(0)
        os.close(w)
        chunks, deadline = [], time.monotonic() + timeout
        with os.fdopen(r, "rb") as f:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([f], [], [], left)[0]:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    return Outcome("hung", message=f"no answer in {timeout:g} s")
                chunk = os.read(f.fileno(), 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        err.seek(0)
        log = err.read().decode("utf-8", "replace").strip()
    if not chunks:
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        return Outcome("crashed", message=f"signal {sig}: {log[-300:]}")
    outcome = pickle.loads(b"".join(chunks))
    if outcome.kind == "refused" and log:
        outcome.message = log.splitlines()[0] + " / " + outcome.message
    return outcome


def tflm_run(data, inputs, timeout=60.0):
    """TFLM's interpreter on `data` in a forked child: Outcome ok / refused / crashed / hung."""
    def work():
        from tflite_micro.python.tflite_micro import runtime
        _tolerate_wrapper_preparse(runtime)
        try:
            it = runtime.Interpreter.from_bytes(bytes(data), arena_size=TFLM_ARENA_BYTES)
            for i, x in enumerate(inputs):
                it.set_input(x, i)
            it.invoke()
            return Outcome("ok", [np.array(it.get_output(i)) for i in range(_output_count(data))])
        except Exception as e:                     # TFLM's refusals: RuntimeError/ValueError
            return Outcome("refused", message=f"{type(e).__name__}: {e}")
    return in_child(work, timeout)


def _tolerate_wrapper_preparse(runtime):
    """The Python wrapper counts VAR_HANDLE ops with the object API before TFLM's C++ sees the
    model; that pre-parse fails on options of another type, which TFLM itself reads as
    defaults.  Its failure is the wrapper's, not TFLM's verdict: count 0 (no model here has
    resource variables) and let TFLM decide."""
    count = runtime.count_resource_variables

    def tolerant(model_bytes):
        try:
            return count(model_bytes)
        except Exception:
            return 0
    runtime.count_resource_variables = tolerant


def _output_count(data):
    try:
        return max(1, tflite.Model.GetRootAsModel(bytearray(data), 0).Subgraphs(0).OutputsLength())
    except Exception:
        return 1


# --- running armsim -------------------------------------------------------------------------

def armsim_run(data, inputs, workdir, path="reference", timeout=600.0):
    """`armsim run` on `data` (CliRunner in a forked child): Outcome ok / refused / traceback /
    multiline / crashed / hung."""
    return in_child(lambda: _armsim_run(data, inputs, workdir, path), timeout)


def _armsim_run(data, inputs, workdir, path):
    workdir = Path(workdir)
    model_file, out_file = workdir / "mutant.tflite", workdir / "y.npy"
    model_file.write_bytes(bytes(data))
    if out_file.exists():
        out_file.unlink()
    args = ["run", str(model_file), "--output", str(out_file), "--path", path]
    for k, x in enumerate(inputs):
        np.save(workdir / f"x{k}.npy", x, allow_pickle=False)
        args += ["--input", str(workdir / f"x{k}.npy")]
    result = CliRunner().invoke(main, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        text = "".join(traceback.format_exception(result.exception))
        return Outcome("traceback", message=text)
    if result.exit_code == 0:
        return Outcome("ok", [np.load(out_file, allow_pickle=False)])
    message = result.output.strip()
    lines = [line for line in message.splitlines() if line.strip()]
    if len(lines) != 1 or "Traceback" in message:
        return Outcome("multiline", message=message)
    if out_file.exists():
        return Outcome("traceback", message=f"failed but wrote {out_file}: {message}")
    return Outcome("refused", message=message)


def warm_up(data, inputs, workdir, path="reference"):
    """Run `data` once in this process, so the forked children inherit its compiled kernels
    instead of each loading them from numba's cache again."""
    return _armsim_run(data, inputs, workdir, path)


def inputs_for(data, fallback, seed):
    """Seeded inputs matching the graph inputs the mutant declares (the fallback when its
    inputs cannot be read or are absurdly large)."""
    rng = np.random.default_rng(seed)
    dtypes = {tflite.TensorType.INT8: np.int8, tflite.TensorType.FLOAT32: np.float32,
              tflite.TensorType.INT16: np.int16, tflite.TensorType.INT32: np.int32,
              tflite.TensorType.UINT8: np.uint8}
    try:
        sg = tflite.Model.GetRootAsModel(bytearray(data), 0).Subgraphs(0)
        out = []
        for k in range(sg.InputsLength()):
            t = sg.Tensors(int(sg.Inputs(k)))
            shape = tuple(int(d) for d in t.ShapeAsNumpy()) if t.ShapeLength() else ()
            dtype = dtypes.get(t.Type())
            if dtype is None or any(d < 0 for d in shape) or \
                    np.prod(shape, dtype=np.float64) > MAX_INPUT_ELEMENTS:
                return fallback
            if dtype == np.float32:
                out.append(rng.standard_normal(shape).astype(np.float32))
            else:
                info = np.iinfo(dtype)
                out.append(rng.integers(max(info.min, -128), min(info.max, 127) + 1, shape,
                                        dtype=dtype))
        return out or fallback
    except Exception:
        return fallback


# --- mutants --------------------------------------------------------------------------------

def _schema():
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated
    return schema_py_generated


def unpack(data):
    return _schema().ModelT.InitFromPackedBuf(bytearray(data), 0)


def pack(model_t):
    b = flatbuffers.Builder(1 << 16)
    b.Finish(model_t.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


_TYPES = (0, 1, 2, 3, 4, 6, 7, 9, 10, 16, 17)      # FLOAT32 ... INT8, UINT32, UINT16
_SCALES = (-1.0, 0.0, 1e38, 1e-12, 1e-30, float("nan"), float("inf"), 2.0, 1e-3, 0.5)
_ZERO_POINTS = (32767, 2**31, -129, 128, 127, -128, 1, -(2**31), 2**40)
_OPTION_VALUES = (-1, 0, 1, 2, 3, 4, 5, 6, 7, 100, 2**30)


def _mutate_shape(m, rng):
    t = _pick(rng, m.subgraphs[0].tensors)
    shape = list(t.shape) if t.shape is not None else []
    choice = rng.integers(4)
    if choice == 0 and shape:
        k = rng.integers(len(shape))
        shape[k] = int(rng.choice([0, 1, 2, shape[k] + 1, max(shape[k] - 1, 0), -1, 3]))
    elif choice == 1:
        shape = shape[:-1] if shape else [1]
    elif choice == 2:
        shape = [1] + shape
    else:
        shape = []
    t.shape = np.asarray(shape, np.int32)
    return f"shape of tensor {t.name!r} -> {shape}"


def _mutate_type(m, rng):
    t = _pick(rng, m.subgraphs[0].tensors)
    t.type = int(rng.choice(_TYPES))
    return f"type of tensor {t.name!r} -> {t.type}"


def _mutate_quantization(m, rng):
    t = _pick(rng, [t for t in m.subgraphs[0].tensors if t.quantization is not None]
              or m.subgraphs[0].tensors)
    q = t.quantization or _schema().QuantizationParametersT()
    t.quantization = q
    choice = rng.integers(6)
    if choice == 0:
        q.scale = np.full(max(1, len(q.scale) if q.scale is not None else 1),
                          rng.choice(_SCALES), np.float32)
        what = f"scale {q.scale[0]}"
    elif choice == 1:
        q.zeroPoint = np.full(max(1, len(q.zeroPoint) if q.zeroPoint is not None else 1),
                              int(rng.choice(_ZERO_POINTS)), np.int64)
        what = f"zero point {q.zeroPoint[0]}"
    elif choice == 2:
        q.zeroPoint = None
        what = "no zero point"
    elif choice == 3:
        q.scale = None
        what = "no scale"
    elif choice == 4:
        q.quantizedDimension = int(rng.integers(-1, 5))
        what = f"quantized dimension {q.quantizedDimension}"
    else:
        n = int(rng.integers(1, 5))
        q.scale = np.full(n, 0.01, np.float32)
        q.zeroPoint = np.zeros(int(rng.choice([1, n])), np.int64)
        what = f"{n} scales"
    return f"quantization of tensor {t.name!r}: {what}"


def _mutate_opcode(m, rng):
    c = _pick(rng, m.operatorCodes)
    choice = rng.integers(3)
    code = int(rng.choice([1, 2, 3, 4, 9, 17, 18, 22, 25, 34, 40, 114, 6, 0, 150, 255]))
    if choice == 0:
        c.deprecatedBuiltinCode = min(code, 127)
        return f"deprecated builtin code -> {c.deprecatedBuiltinCode}"
    if choice == 1:
        c.builtinCode = code
        return f"builtin code -> {code}"
    c.version = int(rng.integers(0, 10))
    return f"version -> {c.version}"


def _mutate_buffer(m, rng):
    with_data = [b for b in m.buffers if b.data is not None and len(b.data)] or m.buffers
    b = _pick(rng, with_data)
    choice = rng.integers(5)
    n = len(b.data) if b.data is not None else 0
    if choice == 0 and n:
        b.data = b.data[:int(rng.integers(0, n))]
        return "buffer truncated"
    if choice == 1:
        extra = rng.integers(0, 256, int(rng.integers(1, 64)), dtype=np.uint8)
        b.data = np.concatenate([b.data if b.data is not None else np.zeros(0, np.uint8), extra])
        return "buffer extended"
    if choice == 2:
        b.offset, b.size = int(rng.integers(2, 64)), n
        return "buffer offset with inline data"
    if choice == 3:
        b.data = None
        return "buffer data removed"
    if n:
        b.data = rng.integers(0, 256, n, dtype=np.uint8)
    return "buffer randomised"


def _mutate_options(m, rng):
    op = _pick(rng, m.subgraphs[0].operators)
    opts = op.builtinOptions
    choice = rng.integers(4)
    if choice == 0 or opts is None:
        op.builtinOptionsType = int(rng.integers(0, 40))
        return f"options type -> {op.builtinOptionsType}"
    if choice == 1:
        op.builtinOptions, op.builtinOptionsType = None, 0
        return "options removed"
    names = [k for k, v in vars(opts).items() if isinstance(v, (int, float, bool))
             and not isinstance(v, np.ndarray)]
    if not names:
        op.builtinOptionsType = int(rng.integers(0, 40))
        return f"options type -> {op.builtinOptionsType}"
    name = names[int(rng.integers(len(names)))]
    value = getattr(opts, name)
    new = float(rng.choice([0.0, -1.0, 1e-6, 1e6, 2.0])) if isinstance(value, float) \
        else bool(rng.integers(2)) if isinstance(value, bool) \
        else int(rng.choice(_OPTION_VALUES))
    setattr(opts, name, new)
    return f"option {name} -> {new}"


def _mutate_inputs(m, rng):
    sg = m.subgraphs[0]
    op = _pick(rng, sg.operators)
    ins = list(op.inputs)
    choice = rng.integers(3)
    if choice == 0:
        ins.append(int(rng.integers(-1, len(sg.tensors))))
        what = "extra input"
    elif choice == 1 and ins:
        ins.pop()
        what = "last input dropped"
    else:
        if ins:
            ins[int(rng.integers(len(ins)))] = int(rng.integers(-1, len(sg.tensors)))
        what = "input replaced"
    op.inputs = np.asarray(ins, np.int32)
    return what


STRUCTURED = {"shape": _mutate_shape, "type": _mutate_type, "quantization": _mutate_quantization,
              "opcode": _mutate_opcode, "buffer": _mutate_buffer, "options": _mutate_options,
              "inputs": _mutate_inputs}


def _pick(rng, items):
    return items[int(rng.integers(len(items)))]


def mutant(data, rng):
    """(kind, description, mutant bytes) of the model bytes `data`."""
    kinds = list(STRUCTURED) + ["bytes"]
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "bytes":
        bad = bytearray(data)
        spots = rng.integers(0, len(bad), size=int(rng.integers(1, 5)))
        for pos in spots:
            bad[pos] = int(rng.integers(0, 256))
        return kind, f"bytes at {sorted(int(p) for p in spots)}", bytes(bad)
    while True:                 # a value out of its field's range (int8 options) is redrawn
        m = unpack(data)
        what = STRUCTURED[kind](m, rng)
        try:
            return kind, what, pack(m)
        except (TypeError, OverflowError, struct.error):
            continue


@dataclass
class Verdict:
    status: str          # agree-ok | agree-refused | documented-refusal | tflm-crashed | FAIL:...
    detail: str = ""


def compare(data, inputs, workdir, path="reference", timeout=60.0):
    """Run one model on both and judge the pair."""
    theirs = tflm_run(data, inputs, timeout)
    ours = armsim_run(data, inputs, workdir, path)
    if ours.kind in ("traceback", "multiline", "crashed", "hung"):
        return Verdict(f"FAIL:armsim-{ours.kind}", ours.message[-2000:])
    if theirs.kind in ("crashed", "hung"):
        return Verdict(f"tflm-{theirs.kind}", f"armsim {ours.kind}: {ours.message}")
    if ours.kind == "ok" and theirs.kind == "ok":
        same = len(ours.outputs) <= len(theirs.outputs) and all(
            a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
            for a, b in zip(ours.outputs, theirs.outputs))
        return Verdict("agree-ok") if same else Verdict(
            "FAIL:outputs-differ", f"{_diff(ours.outputs, theirs.outputs)}")
    if ours.kind == "refused" and theirs.kind == "refused":
        return Verdict("agree-refused", ours.message)
    if ours.kind == "ok":
        return Verdict("FAIL:armsim-accepts-tflm-refuses", theirs.message)
    why = documented_refusal(ours.message)
    if why is None:
        return Verdict("FAIL:armsim-refuses-tflm-runs", ours.message)
    return Verdict("documented-refusal", ours.message)


def _diff(ours, theirs):
    parts = []
    for a, b in zip(ours, theirs):
        if a.shape != b.shape or a.dtype != b.dtype:
            parts.append(f"armsim {a.dtype}{list(a.shape)} vs TFLM {b.dtype}{list(b.shape)}")
        else:
            parts.append(f"{int(np.sum(a != b))} of {a.size} values differ")
    return "; ".join(parts)
