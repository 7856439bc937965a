"""armsim.pipeline.model: reading and validating .tflite files; bad inputs are one clear line."""
import json

import numpy as np
import pytest
import tflite

from armsim.pipeline import model, prepare
from armsim.data import modelgen
from model_helpers import SHARED, shared_model, tiny_graph, tiny_model_bytes


@pytest.mark.parametrize("name", SHARED)
def test_shared_models_load_with_measured_ops_and_macs(name):
    m = model.load(str(shared_model(name)))
    steps = prepare.prepare(m)
    measured = json.loads((shared_model(name).parent / "measured.json").read_text())
    ops = measured["paths"]["simd"]["ops"]
    assert [s.op for s in steps] == [o["op"] for o in ops]
    assert [s.macs for s in steps] == [o["macs"] for o in ops]
    assert m.name == name


def _load_bytes(tmp_path, data, name="bad.tflite"):
    p = tmp_path / name
    p.write_bytes(bytes(data))
    return model.load(str(p))


def _error(tmp_path, data):
    with pytest.raises(model.ModelError) as e:
        m = _load_bytes(tmp_path, data)
        prepare.prepare(m)
    msg = str(e.value)
    assert "\n" not in msg and "bad.tflite" in msg
    return msg


def test_missing_file(tmp_path):
    with pytest.raises(model.ModelError, match="no such file"):
        model.load(str(tmp_path / "nope.tflite"))


def test_truncated_file(tmp_path):
    data = tiny_model_bytes()
    for cut in (0, 5, 40, len(data) // 3, len(data) - 200):
        msg = _error(tmp_path, data[:cut])
        assert "truncated" in msg or "corrupt" in msg or "not a TFLite" in msg, (cut, msg)


def test_not_a_flatbuffer(tmp_path):
    assert "not a TFLite flatbuffer" in _error(tmp_path, b"hello world, this is text\n" * 10)


def test_corrupted_tensor_index(tmp_path):
    g = tiny_graph()
    g.ops[0].inputs[0] = 999
    msg = _error(tmp_path, g.build())
    assert "op 0 CONV_2D" in msg and "tensor index 999 out of range" in msg


def test_corrupted_opcode_index(tmp_path):
    data = bytearray(tiny_model_bytes())
    fb = tflite.Model.GetRootAsModel(data, 0)
    op = fb.Subgraphs(0).Operators(1)
    o = op._tab.Offset(4)                              # opcode_index field
    data[op._tab.Pos + o:op._tab.Pos + o + 4] = (77).to_bytes(4, "little")
    assert "opcode index 77 out of range" in _error(tmp_path, data)


def test_corrupted_buffer_length(tmp_path):
    data = bytearray(tiny_model_bytes())
    fb = tflite.Model.GetRootAsModel(data, 0)
    weights = fb.Subgraphs(0).Tensors(1)               # the conv filter
    buf = fb.Buffers(weights.Buffer())
    start = buf._tab.Vector(buf._tab.Offset(4))
    data[start - 4:start] = (10 ** 8).to_bytes(4, "little")
    msg = _error(tmp_path, data)
    assert "buffer" in msg and ("past the end" in msg or "corrupt" in msg)


def test_buffer_size_mismatch(tmp_path):
    data = bytearray(tiny_model_bytes())
    fb = tflite.Model.GetRootAsModel(data, 0)
    weights = fb.Subgraphs(0).Tensors(1)
    buf = fb.Buffers(weights.Buffer())
    start = buf._tab.Vector(buf._tab.Offset(4))
    n = int.from_bytes(data[start - 4:start], "little")
    data[start - 4:start] = (n - 1).to_bytes(4, "little")
    msg = _error(tmp_path, data)
    assert "tensor 1" in msg and f"holds {n - 1} bytes" in msg


def test_float_model(tmp_path):
    g = modelgen.Graph()
    x = g.input((1, 4), dtype="float32", name="x")
    w = g.tensor((3, 4), "float32", data=np.ones((3, 4), np.float32), name="w")
    y = g.tensor((1, 3), "float32", name="y")
    g._op(tflite.BuiltinOperator.FULLY_CONNECTED, [x, w, -1], [y],
          tflite.BuiltinOptions.FullyConnectedOptions,
          (tflite.FullyConnectedOptionsStart, [], tflite.FullyConnectedOptionsEnd))
    g.output(y)
    steps = prepare.prepare(_load_bytes(tmp_path, g.build(), "float.tflite"))
    (step,) = steps                        # TFLM computes it on the host: not simulated
    assert step.host and "FLOAT32" in step.host_reason and "int8" in step.host_reason


def test_int16_model(tmp_path):
    g = tiny_graph()
    for t in g.tensors:
        if t.dtype == "int8" and t.data is None:
            t.dtype = "int16"
    steps = prepare.prepare(_load_bytes(tmp_path, g.build(), "int16.tflite"))
    conv, reshape, fc = steps
    # what TFLM's CMSIS-NN Prepare refuses for 16x8 runs in TFLM on the host, with the reason
    assert conv.host and "INT16" in conv.host_reason and "zero point" in conv.host_reason
    assert fc.host and "INT32 bias" in fc.host_reason
    assert not reshape.host and reshape.output_dtype == "int16"


def test_custom_op(tmp_path):
    g = tiny_graph()
    g.ops[1].code = tflite.BuiltinOperator.CUSTOM
    msg = _error(tmp_path, g.build())
    assert "op 1" in msg and "custom op" in msg


def test_unknown_and_unsupported_ops(tmp_path):
    g = tiny_graph()
    g.ops[1].code = 250                                  # no such builtin
    assert "unknown builtin op code 250" in _error(tmp_path, g.build())
    g = tiny_graph()
    g.ops[1].code = tflite.BuiltinOperator.ELU           # given RESHAPE's two inputs
    msg = _error(tmp_path, g.build())
    assert "op 1 ELU: TFLM cannot run this op" in msg and "NumInputs" in msg


def test_op_version_out_of_range(tmp_path):
    g = tiny_graph()
    g.ops[1].code = tflite.BuiltinOperator.RESHAPE
    data = g.build()
    m = _load_bytes(tmp_path, data, "ok.tflite")
    assert m.operators[1].version == 1
    g = tiny_graph()
    g.versions[tflite.BuiltinOperator.RESHAPE] = 9
    steps = prepare.prepare(_load_bytes(tmp_path, g.build(), "v9.tflite"))
    assert steps[1].host and "version 9" in steps[1].host_reason


def test_corrupted_bytes_never_escape_as_other_errors(tmp_path):
    """Seeded byte corruption anywhere in a model: loading and preparing either succeed or
    raise ModelError, never another exception (what the CLI would show as a traceback)."""
    data = tiny_model_bytes()
    rng = np.random.default_rng(11)
    outcomes = {"ok": 0, "error": 0}
    for _ in range(300):
        bad = bytearray(data)
        for pos in rng.integers(0, len(bad), size=int(rng.integers(1, 4))):
            bad[pos] = int(rng.integers(0, 256))
        try:
            prepare.prepare(model.parse(bytes(bad), "fuzz.tflite"))
            outcomes["ok"] += 1
        except model.ModelError as e:
            assert "\n" not in str(e)
            outcomes["error"] += 1
    assert outcomes["error"] > 0 and outcomes["ok"] > 0


# --- reading the file: regular files only, bounded, never blocking -------------------------

def test_directories_devices_and_fifos_are_refused_without_reading(tmp_path):
    import os
    fifo = tmp_path / "model.fifo"
    os.mkfifo(fifo)                       # no writer: a blocking open would hang here
    for path, needle in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"),
                         (tmp_path, "is a directory")):
        with pytest.raises(model.ModelError, match=needle) as e:
            model.load(str(path))
        assert str(path) in str(e.value) and "\n" not in str(e.value)


def test_size_cap_and_unreadable_paths_are_one_line(tmp_path, monkeypatch):
    big = tmp_path / "big.tflite"
    big.write_bytes(tiny_model_bytes())
    monkeypatch.setattr(model, "MAX_MODEL_BYTES", 100)
    with pytest.raises(model.ModelError, match="larger than 100 bytes"):
        model.load(str(big))
    for path in (str(tmp_path / ("x" * 300)), "/" + "d/" * 3000 + "m.tflite", "nul\x00.tflite"):
        with pytest.raises(model.ModelError) as e:
            model.load(path)
        assert "\n" not in str(e.value) and "\x00" not in str(e.value)

