"""The measured data committed under tests/data/measured/ (written by tools/measure from the
real kernels: CMSIS-NN on dsp_O2 / scalar_O2, TFLM's reference kernels on ref_O2) is
well-formed: every count agrees with the others, mnemonics fall in the classes armsim times
them by, the dispatch recorded is the one measured, and output_ref is what armsim's numpy
oracle computes.  Pure JSON: no toolchain needed.

<family>/*.json are whole cases (random_cases.py); shared_reference/*.json hold only the
ref_O2 entries of ../shared/reference's cases (measure_dir.py)."""
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu.instructions import CLASS_OF
from armsim.kernels.oracle import oracle
from conftest import REPO, load_case

DATA = Path(__file__).resolve().parent / "data" / "measured"
CASES = sorted(p for p in DATA.glob("*/*.json") if p.parent.name != "shared_reference")
SHARED = sorted(DATA.glob("shared_reference/*.json"))
CMSIS_BUILDS = ("dsp_O2", "scalar_O2")
MCPU = {"dsp_O2": "cortex-m4", "scalar_O2": "cortex-m3", "ref_O2": "cortex-m4"}
LOAD_CLASSES, STORE_CLASSES = ("ld1", "ldrd", "ldm"), ("st1", "strd", "stm")


def check_entry(build, m, function):
    """One `measured.<build>` entry: its counts agree with each other."""
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
    # CMSIS-NN builds count the API entry point; ref_O2 counts TFLM's Eval of the op (which may
    # have inlined the reference kernel: fully_connected.cc's FullyConnectedPerChannel is)
    if build in CMSIS_BUILDS:
        assert m["kernel_chain"][0] == function
    else:
        assert m["kernel_chain"][0].endswith("Eval")
    assert set(m["kernel_chain"]) <= set(m["functions"])
    for edge in m["calls"]:
        caller, callee = edge.split("->")
        assert caller in m["functions"] and callee in m["functions"], edge
    assert m["build"]["mcpu"] == MCPU[build]


def test_there_is_measured_data():
    assert {p.parent.name for p in CASES} >= {"fully_connected", "conv", "depthwise_conv"}
    assert len(SHARED) >= 12


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_measured_case_is_consistent(path):
    case = load_case(path)
    assert case["case"] == path.stem and case["family"] == path.parent.name
    assert case["functions_validated"][0] == case["function"]
    assert set(CMSIS_BUILDS) <= set(case["measured"])
    for build, m in case["measured"].items():
        check_entry(build, m, case["function"])
        if "wrapper_dispatch" in case and build in CMSIS_BUILDS:
            assert m["kernel_chain"][1] == case["wrapper_dispatch"], build
    m = case["measured"]
    assert m["dsp_O2"]["kernel_chain"][:2] == m["scalar_O2"]["kernel_chain"][:2]
    assert np.array_equal(oracle(case), np.asarray(case["output_ref"]))


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.stem)
def test_measured_shared_reference_entry_is_consistent(path):
    record = load_case(path)
    case = load_case(REPO / record["shared_case"])
    assert record["case"] == case["case"] == path.stem and record["family"] == case["family"]
    for build, m in record["measured"].items():
        assert build not in case["measured"]      # only what ../shared/reference lacks
        check_entry(build, m, case["function"])
