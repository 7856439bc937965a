"""Shared test fixtures: where ../shared lives (beside the repository, in CI too), and which
of its cases the code supports."""
import functools
import json
import os
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, settings

from armsim.kernels.families import FAMILIES, family, oracle
from armsim.pipeline.build import PATHS, Build
from armsim.pipeline.harness import run_case

# pytest -n 2 keeps both cores busy already: no compile helpers per run (armsim.infra.precompile;
# tests/infra/test_precompile.py sets its own)
os.environ.setdefault("ARMSIM_JOBS", "1")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
VECTORS = SHARED / "cmsis_nn_vectors"
REFERENCE = SHARED / "reference"
MODELS = SHARED / "models"
#: the measured build (../shared/reference/README.md) each CMSIS-NN path is compared with
MEASURED_BUILD = {path: Build(path).measured_build for path in ("simd", "scalar")}
#: ../shared/reference/README.md's erratum: the scalar_O2 run of avgpool2x2_s2_8x8x16 did not
#: count arm_avgpool_s8_get_buffer_size (`movs r0, #0; bx lr`: 2 instructions, 6 cycles_trm),
#: which arm_avgpool_s8 calls there (ctx->buf is NULL in the plain-C build)
UNCOUNTED = {("avgpool2x2_s2_8x8x16", "scalar"): {"mnemonics": {"mov": 1, "bx": 1},
                                                  "function": "arm_avgpool_s8_get_buffer_size",
                                                  "cycles_trm": 6}}


@functools.lru_cache(maxsize=None)
def _family(path):
    return json.loads(Path(path).read_text())["family"]


def load_case(path):
    return json.loads(Path(path).read_text())


def shared_cases(directory, family=None):
    """The case files in `directory` of the families armsim ports (all of them if `family`
    is None, else that one).  tests/kernels/test_shared_coverage.py names the families left out."""
    return [p for p in sorted(Path(directory).glob("*.json"))
            if _family(p) in FAMILIES and (family is None or _family(p) == family)]


def all_families(directory):
    return {_family(p) for p in Path(directory).glob("*.json")}


def expected_output(case):
    """`output_ref` in the family's output type (OUTPUT_DTYPE: int16 for the 16x8 families,
    int8 by default)."""
    dtype = getattr(family(case["family"]), "OUTPUT_DTYPE", np.int8)
    return np.asarray(case["output_ref"], dtype)


#: hypothesis settings of the seeded property tests against the numpy oracles
PROPERTY = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def all_paths_equal_oracle(case):
    """`case`'s output on every path equals its family's numpy oracle."""
    want = oracle(case)
    for path in PATHS:
        np.testing.assert_array_equal(run_case(case, Build(path)).output, want, err_msg=path)
