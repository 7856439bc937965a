"""Ops armsim cannot simulate, computed by TFLM itself on the host.

An op with no module in `armsim.operators` (or a variant its Prepare does not simulate,
e.g. a broadcast ADD) is cut out of the model into a one-op model — its tensors,
constant buffers, operator code and options copied unchanged — and run by TFLM's Python
interpreter (`tflite_micro`), so `run` stays bit-exact with TFLM.  Nothing is counted for
such an op: every table, JSON and report marks it "not simulated".  Only an op TFLM itself
cannot run is an error.

TFLM runs in a forked child (`_isolated`): its C++ aborts the process on a failed
TFLITE_CHECK (an ADD whose second input is unquantized: QuantizeMultiplierSmallerThanOneExp
of 0), which must end in armsim's one-line error, not in armsim's death.
"""
import contextlib
import faulthandler
import os
import pickle
import signal
import sys
import tempfile

import numpy as np

from armsim.errors import ModelError


@contextlib.contextmanager
def _captured_stderr(lines):
    """TFLM's C++ side reports Prepare failures on file descriptor 2: collect them into
    `lines` (they become part of armsim's one-line error) instead of the terminal."""
    import sys
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            lines.extend(tmp.read().decode("utf-8", "replace").split("\n"))


def _schema():
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as schema
    return schema


def cut(model, op):
    """The .tflite bytes of a model holding only `op` of `model`: inputs are its
    non-constant inputs except variable tensors (the op's state, which TFLM resets and
    keeps itself: SVDF, LSTM), outputs all its outputs."""
    import flatbuffers
    schema = _schema()
    full = schema.ModelT.InitFromPackedBuf(bytearray(model.raw), 0)
    graph = full.subgraphs[0]
    node = graph.operators[op.index]
    used = [i for i in list(node.inputs) + list(node.outputs) if i >= 0]
    used = list(dict.fromkeys(used))
    remap = {old: new for new, old in enumerate(used)}
    one = schema.ModelT()
    one.version = full.version
    one.description = b"armsim: one op cut from " + (model.name or "model").encode()
    one.operatorCodes = [full.operatorCodes[node.opcodeIndex]]
    one.buffers = [schema.BufferT()]
    tensors = []
    for old in used:
        t = graph.tensors[old]
        buf = full.buffers[t.buffer] if t.buffer < len(full.buffers) else None
        if buf is not None and buf.data is not None and len(buf.data):
            copy = schema.BufferT()
            copy.data = buf.data
            one.buffers.append(copy)
            t.buffer = len(one.buffers) - 1
        else:
            t.buffer = 0
        tensors.append(t)
    sub = schema.SubGraphT()
    sub.tensors = tensors
    node.opcodeIndex = 0
    node.inputs = [remap[i] if i >= 0 else -1 for i in node.inputs]
    node.outputs = [remap[i] for i in node.outputs]
    sub.operators = [node]
    sub.inputs = [remap[i] for i in op.inputs if i >= 0 and not model.tensors[i].constant
                  and not model.tensors[i].is_variable]
    sub.outputs = [remap[i] for i in op.outputs]
    one.subgraphs = [sub]
    builder = flatbuffers.Builder(1024)
    builder.Finish(one.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


HOST_ARENA_BYTES = 64 << 20


def interpreter(model_bytes, what):
    """TFLM's interpreter for `model_bytes`; a ModelError naming `what` if TFLM refuses."""
    try:
        from tflite_micro.python.tflite_micro import runtime
    except ImportError:
        raise ModelError(f"{what}: armsim does not simulate this op and TFLM's Python "
                         f"interpreter (package tflite-micro) is not installed to "
                         f"compute it") from None
    said = []
    try:
        with _captured_stderr(said):
            # the interpreter's default arena (10x the model's bytes) is too small for a cut
            # op whose activations outweigh its weights; a host arena has no device limit
            return runtime.Interpreter.from_bytes(model_bytes, arena_size=HOST_ARENA_BYTES)
    except Exception as e:      # TFLM's Prepare refused the op: one line, with its reason
        reason = " ".join(" ".join(said + [str(e)]).split())[:300]
        raise ModelError(f"{what}: TFLM cannot run this op ({reason})") from None


def check(model_bytes, what):
    """TFLM's Prepare of a one-op model cut by `cut` (in a child): a ModelError naming `what`
    if TFLM refuses or crashes."""
    def prepare():
        interpreter(model_bytes, what)           # the interpreter itself stays in the child
    _isolated(prepare, what, "preparing")


def run(model_bytes, inputs, what):
    """Run a one-op model cut by `cut` (in a child); returns its outputs."""
    return _isolated(lambda: _run(model_bytes, inputs, what), what, "running")


def _run(model_bytes, inputs, what):
    it = interpreter(model_bytes, what)
    said = []
    try:
        for k, x in enumerate(inputs):
            it.set_input(np.require(x, requirements="C"), k)   # keeps rank 0
        with _captured_stderr(said):
            it.invoke()
        n = len(_schema().ModelT.InitFromPackedBuf(bytearray(model_bytes), 0)
                .subgraphs[0].outputs)
        return [np.array(it.get_output(k)) for k in range(n)]
    except ModelError:
        raise
    except Exception as e:
        reason = " ".join(" ".join(said + [str(e)]).split())[:300]
        raise ModelError(f"{what}: TFLM failed to run this op ({reason})") from None


def _isolated(work, what, doing):
    """`work()` in a forked child, its result or ModelError handed back through a pipe; a
    child killed by a signal is a ModelError naming `what`.  Without fork (not POSIX), in
    this process."""
    if not hasattr(os, "fork"):
        return work()
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # child: never returns
        try:
            os.close(r)
            faulthandler.disable()                 # a crash is the parent's one line
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 2)                      # TFLM's own words: _captured_stderr
            try:
                result = ("ok", work())
            except ModelError as e:
                result = ("error", str(e))
            except BaseException as e:             # handed to the parent as one line
                result = ("error", f"{what}: TFLM failed {doing} this op "
                                   f"({type(e).__name__}: {e})")
            with os.fdopen(w, "wb") as f:
                pickle.dump(result, f)
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        blob = f.read()
    _, status = os.waitpid(pid, 0)
    if not blob:
        code = os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        name = signal.Signals(code).name if os.WIFSIGNALED(status) else f"exit status {code}"
        raise ModelError(f"{what}: TFLM crashed {doing} this op ({name}, e.g. a failed "
                         f"TFLITE_CHECK: TFLM itself cannot run it)")
    kind, value = pickle.loads(blob)
    if kind == "error":
        raise ModelError(value)
    return value
