"""MIRROR_PAD (int8) on TFLM's counted reference kernel: a model built with
armsim.data.modelgen, bit-exact with the TFLM interpreter on all three paths, each op simulated
(counted), and the refusals."""
import numpy as np
import pytest

from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline import model, prepare
from armsim.pipeline.build import Build
from model_helpers import run_all_paths, tflm_outputs


def mirror_pad_model():
    g = modelgen.Graph(seed=51)
    x = g.input((1, 3, 4, 5), scale=0.05, zero_point=-4, name="x")
    row = g.input((6,), scale=0.02, zero_point=9, name="row")
    grid = g.input((2, 3, 4), scale=0.03, zero_point=0, name="grid")
    mp = g.mirror_pad
    g.output(mp(x, [[0, 0], [2, 1], [3, 3], [0, 4]], "REFLECT"),        # the widest REFLECT
             mp(x, [[1, 0], [3, 3], [0, 4], [5, 2]], "SYMMETRIC"),      # the widest SYMMETRIC
             mp(row, [[5, 0]], "REFLECT", paddings_dtype="int64"),      # int64 paddings
             mp(row, [[2, 6]], "SYMMETRIC"),
             mp(grid, [[1, 1], [0, 0], [1, 2]], "REFLECT"),
             mp(grid, [[0, 2], [1, 1], [0, 0]], "SYMMETRIC", paddings_dtype="int64"))
    return g.build()


def test_mirror_pad_both_modes_bit_exact_vs_tflite_micro_on_every_path():
    m, _ = run_all_paths(mirror_pad_model(), "mirror_pad.tflite", seed=52)
    assert [s.case["offset"] for s in prepare.prepare(m)] == [1, 0, 1, 0, 1, 0]


def test_mirror_pad_paddings_rows_not_input_rank_refused_as_tflm_does():
    g = modelgen.Graph()
    x = g.input((2, 3), scale=0.05)
    y = g.mirror_pad(x, [[1, 1], [1, 1]])
    g.ops[-1].inputs[1] = g.tensor((3, 2), "int32", data=np.ones((3, 2)), name="pads3")
    g.output(y)
    data = g.build()
    with pytest.raises(ModelError, match=r"MIRROR_PAD.*paddings .* have shape \[3, 2\]: "
                                         r"TFLM's Prepare requires \[2, 2\]"):
        prepare.prepare(model.parse(data, "mirror_pad_rows.tflite"))
    with pytest.raises(RuntimeError):
        tflm_outputs(data, [np.zeros((2, 3), np.int8)])


@pytest.mark.parametrize("mode, pad", [("REFLECT", 3), ("SYMMETRIC", 4)])
def test_mirror_pad_beyond_the_mirror_refused(mode, pad):
    g = modelgen.Graph()
    x = g.input((2, 3), scale=0.05)
    g.output(g.mirror_pad(x, [[0, 0], [0, pad]], mode))
    with pytest.raises(ModelError, match=rf"MIRROR_PAD.*paddings \[0, {pad}\] of dim 1 "
                                         rf"\(size 3\) outside"):
        prepare.prepare(model.parse(g.build(), "mirror_pad_far.tflite"))


def test_mirror_pad_requests_two_scratch_buffers_of_rank_ints():
    from armsim.pipeline import arena
    g = modelgen.Graph()
    x = g.input((2, 3, 4), scale=0.05)
    g.output(g.mirror_pad(x, [[1, 1], [0, 2], [1, 0]]))
    m = model.parse(g.build(), "mirror_pad_arena.tflite")
    p = arena.plan(m, prepare.prepare(m), Build("reference"))
    assert sorted(b.size for b in p.buffers if b.kind == "scratch") == [12, 12]
    assert p.tail_parts["scratch_handles"] == 2 * arena.SCRATCH_HANDLE
