"""A model with an op armsim cannot simulate still runs and profiles: TFLM computes that op
on the host (armsim.pipeline.tflm_host), bit-exact, marked "not simulated" with no counts; only an op
TFLM itself refuses is an error (one line naming the op)."""
import json

import numpy as np
import pytest
import tflite
from click.testing import CliRunner

from armsim.pipeline import arena, model, prepare, profiler
from armsim.data import modelgen
from armsim.cli.main import main
from armsim.pipeline.build import Build
from model_helpers import tflm_outputs

PATHS = ("simd", "scalar", "reference")


def _graph(target_shape=(1, 5, 5, 4)):
    """conv (simulated) -> BROADCAST_TO (no port: TFLM on the host) -> ADD (with
    `target_shape` (1, 1, 1, 4) a broadcast: TFLM's reference kernel, simulated) -> conv
    (simulated)."""
    g = modelgen.Graph(seed=5)
    x = g.input((1, 5, 5, 3), scale=0.04, zero_point=-2, name="x")
    a = g.conv2d(x, 4, (3, 3), padding="SAME", activation="RELU", name="conv0")
    row = g.input((1, 1, 1, 4), scale=0.03, zero_point=1, name="row")
    shape = g.tensor((4,), "int32", data=np.asarray(target_shape, np.int32), name="shape")
    wide = g.tensor(target_shape, "int8", *g.quant(row), name="broadcast")
    g._op(tflite.BuiltinOperator.BROADCAST_TO, [row, shape], [wide])
    s = g.add(a, wide if target_shape == (1, 5, 5, 4) else row, name="sum")
    g.output(g.conv2d(s, 2, (1, 1), padding="VALID", name="conv1"))
    return g


@pytest.fixture(scope="module")
def case():
    data = _graph().build()
    m = model.parse(data, "partly.tflite")
    xs = profiler.random_inputs(m, seed=3)
    return data, m, xs, tflm_outputs(data, xs)


def test_unported_op_and_unported_variant_become_host_steps(case):
    _, m, _, _ = case
    steps = prepare.prepare(m)
    host = {s.op: s.host_reason for s in steps if s.host}
    assert set(host) == {"BROADCAST_TO"}
    assert "no kernel port" in host["BROADCAST_TO"]
    broadcast_add = _graph(target_shape=(1, 1, 1, 4))
    steps = prepare.prepare(model.parse(broadcast_add.build(), "bcast.tflite"))
    assert [s.op for s in steps if s.host] == ["BROADCAST_TO"]
    assert [s.op for s in steps if s.reference_only and not s.host] == ["ADD"]


@pytest.mark.parametrize("path", PATHS)
def test_outputs_bit_exact_and_host_ops_marked(case, path):
    _, m, xs, expected = case
    prof = profiler.run(m, Build(path), inputs=xs)
    np.testing.assert_array_equal(prof.outputs[0], expected[0])
    ops = {o.op: o for o in prof.ops}
    assert not ops["BROADCAST_TO"].simulated and ops["BROADCAST_TO"].cycles == 0
    assert ops["BROADCAST_TO"].instructions == 0
    assert ops["CONV_2D"].simulated and ops["CONV_2D"].cycles > 0
    assert prof.not_simulated == 1
    data = prof.to_json()
    assert data["total"]["not_simulated_ops"] == 1 and data["total"]["ops"] == len(prof.ops)
    assert [o["simulated"] for o in data["ops"]].count(False) == 1
    assert arena.plan(m, prepare.prepare(m), Build(path)).total > 0


def test_profile_and_compare_say_what_was_not_simulated(case, tmp_path):
    data, _, _, _ = case
    path = tmp_path / "partly.tflite"
    path.write_bytes(data)
    r = CliRunner().invoke(main, ["profile", str(path), "--json", str(tmp_path / "p.json")])
    assert r.exit_code == 0, r.output
    assert "not simulated: 1 of 4 ops" in r.output
    assert json.loads((tmp_path / "p.json").read_text())["total"]["not_simulated_ops"] == 1
    r = CliRunner().invoke(main, ["compare", str(path)])
    assert r.exit_code == 0 and "identical on all three paths" in r.output, r.output


def test_an_op_tflm_refuses_is_one_line(tmp_path):
    data = _graph(target_shape=(1, 5, 5, 7)).build()      # 4 channels cannot become 7
    path = tmp_path / "bad.tflite"
    path.write_bytes(data)
    r = CliRunner().invoke(main, ["profile", str(path)])
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert "op 1 BROADCAST_TO" in r.output and "TFLM cannot run this op" in r.output
    assert "must be broadcastable" in r.output     # TFLM's own reason, in the one line
