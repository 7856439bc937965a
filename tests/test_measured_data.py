"""The measured cases committed under tests/data/measured/ (written by tools/measure/
random_cases.py from the real kernels) are well-formed: every count agrees with the others,
mnemonics fall in the classes armsim times them by, the dispatch recorded is the one measured,
and output_ref is what armsim's numpy oracle computes.  Pure JSON: no toolchain needed."""
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu.instructions import CLASS_OF
from armsim.kernels.oracle import oracle
from conftest import load_case

DATA = Path(__file__).resolve().parent / "data" / "measured"
CASES = sorted(DATA.glob("*/*.json"))
BUILDS = ("dsp_O2", "scalar_O2")
LOAD_CLASSES, STORE_CLASSES = ("ld1", "ldrd", "ldm"), ("st1", "strd", "stm")


def test_there_is_measured_data():
    assert {p.parent.name for p in CASES} >= {"fully_connected", "conv", "depthwise_conv"}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_measured_case_is_consistent(path):
    case = load_case(path)
    assert case["case"] == path.stem and case["family"] == path.parent.name
    assert case["functions_validated"][0] == case["function"]
    outputs = {b: case["measured"][b] for b in BUILDS}
    for build, m in outputs.items():
        n = m["instructions"]
        assert sum(m["mnemonic_histogram"].values()) == n, build
        assert sum(m["class_histogram"].values()) == n, build
        assert sum(m["functions"].values()) == n, build
        by_class = Counter()
        for mn, k in m["mnemonic_histogram"].items():
            by_class[CLASS_OF[mn]] += k
        assert by_class == Counter(m["class_histogram"]), build
        assert m["loads"] == sum(m["class_histogram"].get(c, 0) for c in LOAD_CLASSES)
        assert m["stores"] == sum(m["class_histogram"].get(c, 0) for c in STORE_CLASSES)
        assert m["load_beats"] >= m["loads"] and m["store_beats"] >= m["stores"]
        assert m["instructions_incl_condition_failed_it"] >= n
        # every instruction costs at least a cycle, every taken branch a refill (P = 2)
        assert m["cycles_trm"] >= m["instructions_incl_condition_failed_it"] + 2 * m["taken_branches"]
        assert m["kernel_chain"][0] == case["function"]
        assert set(m["kernel_chain"]) <= set(m["functions"])
        for edge in m["calls"]:
            caller, callee = edge.split("->")
            assert caller in m["functions"] and callee in m["functions"], edge
        if "wrapper_dispatch" in case:
            assert m["kernel_chain"][1] == case["wrapper_dispatch"], build
        assert m["build"]["mcpu"] == {"dsp_O2": "cortex-m4", "scalar_O2": "cortex-m3"}[build]
    assert outputs["dsp_O2"]["kernel_chain"][:2] == outputs["scalar_O2"]["kernel_chain"][:2]
    assert np.array_equal(oracle(case), np.asarray(case["output_ref"]))
