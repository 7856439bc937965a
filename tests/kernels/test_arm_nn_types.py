"""CMSIS-NN's structs as named fields (issue 8 item 3): the conv family hands the kernels
the C's arguments by name, so each field lands where the C reads it."""
import json

import pytest

from armsim.pipeline import harness
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.families import conv
from armsim.pipeline.build import Build
from armsim.errors import CaseError

from conftest import VECTORS, load_case


def test_structs_from_case_fields():
    assert types.dims({"n": 1, "h": 2, "w": 3, "c": 4}) == types.Dims(n=1, h=2, w=3, c=4)
    p = types.conv_params({"input_offset": 5, "output_offset": -6,
                           "stride": {"w": 1, "h": 2}, "padding": {"w": 3, "h": 4},
                           "dilation": {"w": 5, "h": 6}, "activation": {"min": -7, "max": 8}})
    assert (p.stride.w, p.stride.h, p.padding.w, p.padding.h, p.dilation.w, p.dilation.h) == \
        (1, 2, 3, 4, 5, 6)
    assert (p.input_offset, p.output_offset, p.activation.min, p.activation.max) == (5, -6, -7, 8)
    with pytest.raises(TypeError):
        types.Dims(n=1, h=2, w=3)                # a missing field is an error, not a 0


def test_a_swapped_field_changes_the_result():
    """A non-square case where swapping w and h of the input gives other outputs: the
    field names carry the layout, and the vectors hold the kernels to it."""
    case = next(c for c in map(load_case, sorted(VECTORS.glob("*.json")))
                if c["family"] == "conv" and c["input_dims"]["w"] != c["input_dims"]["h"]
                and c["input_dims"]["n"] == 1 and c.get("groups", 1) == 1)
    assert harness.run_case(case, Build("simd")).output.tolist() == case["output_ref"]
    swapped = json.loads(json.dumps(case))
    d = swapped["input_dims"]
    d["w"], d["h"] = d["h"], d["w"]
    try:
        out = harness.run_case(swapped, Build("simd")).output.tolist()
    except CaseError:
        return                                   # refused: also noticed
    assert out != case["output_ref"]


def test_conv_family_builds_the_c_arguments():
    case = next(c for c in map(load_case, sorted(VECTORS.glob("*.json")))
                if c["family"] == "conv")
    addr = {"scratch": 0x2000_0000, "scratch_bytes": 64, "input": 1, "weights": 2, "bias": 3,
            "output_mult": 4, "output_shift": 5, "output": 6}
    (ctx, params, quant, input_dims, input_data, filter_dims, filter_data, bias_data,
     output_dims, output_data) = conv._args(case, addr)
    assert ctx == types.Context(0x2000_0000, 64)
    assert quant == types.PerChannelQuantParams(multiplier=4, shift=5)
    assert (input_data, filter_data, bias_data, output_data) == (1, 2, 3, 6)
    for got, want in ((input_dims, case["input_dims"]), (filter_dims, case["filter_dims"]),
                      (output_dims, case["output_dims"])):
        assert got._asdict() == {k: want.get(k, 0) for k in types.Dims._fields}
    assert params.padding == types.Tile(**case["conv_params"]["padding"])
