"""Models with several graph inputs and outputs: `--input` repeatable or one .npz keyed by
input name, every graph output written (.npz keyed by name, or one .npy each), bit-exact
with TFLM's interpreter on all three paths."""
import numpy as np
import pytest
from click.testing import CliRunner

from armsim.data import modelgen
from armsim.cli.main import main
from model_helpers import tflm_outputs

PATHS = ("simd", "scalar", "reference")


@pytest.fixture(scope="module")
def two_in_two_out(tmp_path_factory):
    g = modelgen.Graph(seed=3)
    a = g.input((1, 4, 5, 3), scale=0.03, zero_point=-4, name="left")
    b = g.input((1, 4, 5, 3), scale=0.05, zero_point=7, name="right")
    g.output(g.add(a, b, name="sum"), g.mul(a, b, name="product"))
    data = g.build()
    d = tmp_path_factory.mktemp("multi")
    path = d / "model.tflite"
    path.write_bytes(data)
    rng = np.random.default_rng(0)
    xs = [rng.integers(-128, 128, (1, 4, 5, 3), dtype=np.int8) for _ in range(2)]
    for name, x in zip(("left", "right"), xs):
        np.save(d / f"{name}.npy", x)
    np.savez(d / "inputs.npz", right=xs[1], left=xs[0])
    return d, path, xs, tflm_outputs(data, xs)


def _run(*args):
    return CliRunner().invoke(main, ["run", *map(str, args)])


@pytest.mark.parametrize("path", PATHS)
def test_repeated_inputs_and_npz_output_match_tflm(two_in_two_out, path, tmp_path):
    d, model, _, expected = two_in_two_out
    out = tmp_path / "out.npz"
    r = _run(model, "--input", d / "left.npy", "--input", d / "right.npy", "--output", out,
             "--path", path)
    assert r.exit_code == 0, r.output
    with np.load(out) as z:
        assert z.files == ["sum", "product"]
        for name, want in zip(("sum", "product"), expected):
            np.testing.assert_array_equal(z[name], want)


def test_npz_input_keyed_by_name_and_one_npy_per_output(two_in_two_out, tmp_path):
    d, model, _, expected = two_in_two_out
    outs = [tmp_path / "s.npy", tmp_path / "p.npy"]
    r = _run(model, "--input", d / "inputs.npz", "--output", outs[0], "--output", outs[1])
    assert r.exit_code == 0, r.output
    for o, want in zip(outs, expected):
        np.testing.assert_array_equal(np.load(o), want)


@pytest.mark.parametrize("args, message", [
    (["--input", "left.npy", "--output", "o.npz"], "model has 2 inputs"),
    (["--input", "left.npy", "--input", "right.npy", "--output", "o.npy"], "model has 2 outputs"),
    (["--input", "bad.npz", "--output", "o.npz"], "the model's inputs are"),
])
def test_mismatched_inputs_and_outputs_are_one_line(two_in_two_out, tmp_path, args, message):
    d, model, xs, _ = two_in_two_out
    np.savez(d / "bad.npz", left=xs[0])
    args = [a if a.startswith("--") or a.startswith("o.") else d / a for a in args]
    args = [tmp_path / a if isinstance(a, str) and a.startswith("o.") else a for a in args]
    r = _run(model, *args)
    assert r.exit_code != 0
    assert message in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())            # nothing written
