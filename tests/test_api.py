"""`armsim.profile(...)`, the Python API: the same data as `armsim profile --json`, a flat
per-op table, pandas when it is installed, clear errors, and a cheap `import armsim`."""
import json
import subprocess
import sys
import types

import numpy as np
import pytest
from click.testing import CliRunner

import armsim
from armsim import api
from armsim.pipeline import model
from armsim.data import modelgen
from armsim.cli.main import main
from model_helpers import shared_model, tflm_reference, tiny_model_bytes


def test_import_armsim_is_cheap():
    """`import armsim` loads neither the kernels nor the API (so nothing compiles)."""
    code = "import sys, armsim; print(' '.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    loaded = done.stdout.split()
    assert "armsim" in loaded
    assert not [m for m in loaded if m.startswith(("armsim.api", "armsim.pipeline.profiler",
                                                   "armsim.kernels", "armsim.pipeline.model"))]


def test_profile_is_the_function_and_returns_the_cli_json(tmp_path):
    """The same dict as `armsim profile MODEL --json` for the same options."""
    assert armsim.profile is api.profile and callable(armsim.profile)
    path = tmp_path / "tiny.tflite"
    path.write_bytes(tiny_model_bytes())
    options = dict(core="cortex-m33", path="scalar", toolchain="armclang", clock_mhz=50.0,
                   flash_wait_states=2)
    p = armsim.profile(str(path), **options)
    out = tmp_path / "p.json"
    result = CliRunner().invoke(main, [
        "profile", str(path), "--json", str(out), "--core", "cortex-m33", "--path", "scalar",
        "--toolchain", "armclang", "--clock-mhz", "50", "--flash-wait-states", "2"])
    assert result.exit_code == 0, result.output
    assert p == json.loads(out.read_text()) == json.loads(json.dumps(p))
    assert (p["core"], p["path"], p["toolchain"], p["flash_wait_states"]) == (
        "cortex-m33", "scalar", "armclang", 2)
    assert p["total"]["cycles"] == sum(o["cycles"] for o in p["ops"]) > 0
    assert p["arena_bytes"] > 0


def test_table_is_flat_rows_per_op():
    p = armsim.profile(tiny_model_bytes())
    rows = p.table()
    assert [r["op"] for r in rows] == ["CONV_2D", "RESHAPE", "FULLY_CONNECTED"]
    stages = {s for op in p["ops"] for s in op["stages"]}
    for row, op in zip(rows, p["ops"]):
        assert set(row) == set(op) - {"mnemonics", "fitted_mnemonics", "stages"} | \
            {f"stage_{s}" for s in stages}
        assert row["cycles"] == op["cycles"] and row["output_shape"] == tuple(op["output_shape"])
        assert all(not isinstance(v, (dict, list)) for v in row.values())
        assert sum(row[f"stage_{s}"] for s in stages) == op["cycles"]


def test_to_pandas_builds_a_dataframe_from_the_table(monkeypatch):
    p = armsim.profile(tiny_model_bytes())
    fake = types.ModuleType("pandas")
    fake.DataFrame = lambda rows: ("DataFrame", rows)
    monkeypatch.setitem(sys.modules, "pandas", fake)
    assert p.to_pandas() == ("DataFrame", p.table())
    monkeypatch.setitem(sys.modules, "pandas", None)          # not installed
    with pytest.raises(ImportError, match=r"pip install pandas.*table\(\)"):
        p.to_pandas()


def test_inputs_and_outputs_are_the_models():
    data = tiny_model_bytes()
    x = np.random.default_rng(5).integers(-128, 128, (1, 6, 6, 2), dtype=np.int8)
    want = tflm_reference(data, x)
    for inputs in (x, [x]):
        (got,) = armsim.profile(data, inputs=inputs).outputs
        assert np.array_equal(got, want)


def test_model_arguments():
    """A Model, bytes, a path, a name under $ARMSIM_MODELS, a bundled example, None."""
    m = model.parse(tiny_model_bytes(), "tiny.tflite")
    assert api.load_model(m) is m
    assert api.load_model(str(shared_model("ad"))).path == str(shared_model("ad"))
    assert len(api.load_model("vww").operators) == 31
    assert api.load_model(None).name == "example"
    assert len(api.load_model(modelgen.example_model()).operators) == 7


def test_errors_are_exceptions_with_one_line(tmp_path):
    with pytest.raises(model.ModelError, match="no such file"):
        armsim.profile(str(tmp_path / "absent.tflite"))
    with pytest.raises(model.ModelError, match="no bundled example of that name"):
        armsim.profile("nosuchmodel")
    with pytest.raises(ValueError, match="cortex-m99"):
        armsim.profile(tiny_model_bytes(), core="cortex-m99")
    with pytest.raises(ValueError, match="shape"):
        armsim.profile(tiny_model_bytes(), inputs=np.zeros((1, 5, 6, 2), np.int8))


def test_unknown_attribute():
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        armsim.nothing
