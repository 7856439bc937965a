"""Shared test fixtures: where ../shared lives (beside the repository, in CI too)."""
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
VECTORS = SHARED / "cmsis_nn_vectors"
REFERENCE = SHARED / "reference"
MODELS = SHARED / "models"


def load_case(path):
    return json.loads(Path(path).read_text())
