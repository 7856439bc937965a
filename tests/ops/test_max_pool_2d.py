"""MAX_POOL_2D's int8 kernel, arm_max_pool_s8, and the newlib memcpy it calls.  (Its cases
run through every entry point in tests/kernels/test_entry_points.py, its properties in
tests/ops/test_properties.py.)"""
from armsim.pipeline.build import Build
from armsim.pipeline.harness import run_case

from conftest import REFERENCE, load_case


def test_memcpy_calls_of_max_pool_are_counted():
    """arm_max_pool_s8 copies the first tap of every window with newlib memcpy (one BL
    each, 16 in the measured case)."""
    case = load_case(REFERENCE / "maxpool2x2_s2_8x8x16.json")
    for path in ("simd", "scalar"):
        counts = run_case(case, Build(path)).counts()
        calls = case["measured"][Build(path).measured_build]["calls"]
        assert counts["bl"] == calls["arm_max_pool_s8->memcpy"]

