"""The bundled examples (`armsim.data.modelgen.EXAMPLES`): the MLPerf Tiny ones have the shipped
models' layers, every example is bit-exact with TFLite Micro on all three paths, and model
names resolve through $ARMSIM_MODELS or the bundled examples only (nothing beside the
repository)."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from armsim import api
from armsim.pipeline import model, profiler
from armsim.data import modelgen
from armsim.cli.main import main
from armsim.pipeline.build import Build
from model_helpers import MODELS_DIR, SHARED, shared_model, tflm_reference

PATHS = ("simd", "scalar", "reference")


def _layers(m):
    """Everything about the graph but the weights and quantization values: per op its
    builtin, version, options, input and output shapes and types, which inputs are
    constants and which are per-channel (and along which axis), and where each input
    comes from (graph input, constant, or the index of the op that produced it)."""
    producer = {t: k for k, op in enumerate(m.operators) for t in op.outputs}

    def source(i):
        return "input" if i in m.inputs else producer.get(i, "constant")

    def tensor(i):
        t = m.tensors[i]
        per_channel = t.quantized_dimension if len(t.scale) > 1 else None
        return t.shape, t.type, t.constant, per_channel
    return [(op.op, op.version, op.options, [tensor(i) for i in op.inputs],
             [source(i) for i in op.inputs], [tensor(i) for i in op.outputs])
            for op in m.operators], [tensor(i) for i in m.inputs + m.outputs]


@pytest.mark.parametrize("name", SHARED)
def test_mlperf_examples_have_the_shipped_models_layers(name):
    example = model.parse(modelgen.EXAMPLES[name](seed=0), name)
    shipped = model.load(str(shared_model(name)))
    assert _layers(example) == _layers(shipped)
    assert [t.zero_point.tolist() for t in example.input_tensors()] == \
        [t.zero_point.tolist() for t in shipped.input_tensors()]


@pytest.mark.parametrize("name", SHARED)
def test_mlperf_examples_run_the_shipped_models_kernels(name):
    """Same layers, so the same CMSIS-NN dispatch per op; the counts differ only where a
    kernel's work depends on the values (measured: within 0.15 % on every path)."""
    example = api.profile(name)
    shipped = api.profile(str(shared_model(name)))
    assert [o["kernel"] for o in example["ops"]] == [o["kernel"] for o in shipped["ops"]]
    ratio = example["total"]["instructions"] / shipped["total"]["instructions"]
    assert abs(ratio - 1) < 0.01, ratio


@pytest.mark.parametrize("name", sorted(modelgen.EXAMPLES))
def test_examples_are_bit_exact_with_tflite_micro(name):
    """Every example on every path, one seeded input: the same kernels the shipped models
    run, so this costs about a second per example once the suite has compiled them."""
    data = modelgen.EXAMPLES[name](seed=0)
    m = model.parse(data, f"{name}.tflite")
    (x,) = profiler.random_inputs(m, seed=11)
    want = tflm_reference(data, x)
    assert len(np.unique(want)) > 1, "the output depends on the input, not saturated"
    for path in PATHS:
        got = profiler.run(m, Build(path), inputs=[x]).outputs[0]
        assert got.dtype == want.dtype and got.shape == want.shape, (path, got.shape)
        assert np.array_equal(got, want), (name, path, np.argwhere(got != want)[:5])


def test_examples_are_seeded():
    for builder in modelgen.EXAMPLES.values():
        assert builder(seed=0) == builder(seed=0)
        assert builder(seed=0) != builder(seed=1)


def _profile_json(tmp_path, *args):
    out = tmp_path / "p.json"
    result = CliRunner().invoke(main, ["profile", *args, "--json", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def test_names_resolve_to_bundled_examples_without_a_models_directory(tmp_path, monkeypatch):
    monkeypatch.delenv(api.MODELS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)                 # no ../shared, no repository around
    data = _profile_json(tmp_path, "ad")
    assert data["model"] == "ad-example"
    assert [o["op"] for o in data["ops"]] == ["FULLY_CONNECTED"] * 10
    assert _profile_json(tmp_path)["model"] == "example"


def test_names_resolve_in_the_models_directory_first(tmp_path, monkeypatch):
    monkeypatch.setenv(api.MODELS_ENV, str(MODELS_DIR))
    monkeypatch.chdir(tmp_path)
    assert api.load_model("ad").path == str(MODELS_DIR / "ad" / "model.tflite")
    assert api.load_model("example").name == "example"   # not in the directory
    local = tmp_path / "ad"                     # an existing path wins over a name
    local.write_bytes(modelgen.EXAMPLES["kws"](seed=0))
    assert len(api.load_model("ad").operators) == 13


def test_unknown_name_is_one_line_listing_the_examples(monkeypatch, tmp_path):
    monkeypatch.setenv(api.MODELS_ENV, str(tmp_path))
    result = CliRunner().invoke(main, ["profile", "nosuchmodel"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    for needle in ("nosuchmodel", "no such file", str(tmp_path), *modelgen.EXAMPLES):
        assert needle in lines[0]


@pytest.mark.parametrize("command", ["profile", "compare", "run", "arena"])
def test_help_lists_the_bundled_examples(command):
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0
    assert api.MODELS_ENV in result.output
    for name, builder in modelgen.EXAMPLES.items():
        line = next(ln for ln in result.output.splitlines() if ln.split()[:1] == [name])
        assert builder.__doc__.splitlines()[0].rstrip(".") in line
