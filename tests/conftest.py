"""Shared test fixtures: where ../shared lives (beside the repository, in CI too)."""
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
VECTORS = SHARED / "cmsis_nn_vectors"
REFERENCE = SHARED / "reference"
MODELS = SHARED / "models"
#: the measured build (../shared/reference/README.md) that each armsim path is compared with
MEASURED_BUILD = {"simd": "dsp_O2", "scalar": "scalar_O2"}


def load_case(path):
    return json.loads(Path(path).read_text())
