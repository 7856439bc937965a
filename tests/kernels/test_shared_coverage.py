"""Every case file in ../shared is run by the suite: the tests that read ../shared select the
files of the ported families (conftest.shared_cases), and every family there is ported."""
from pathlib import Path

from armsim import operators
from armsim.kernels.families import FAMILIES

from conftest import REFERENCE, VECTORS, all_families, shared_cases


def test_every_shared_family_is_ported():
    present = all_families(VECTORS) | all_families(REFERENCE)
    assert present and present <= set(FAMILIES), sorted(present - set(FAMILIES))


def test_every_shared_case_file_is_selected():
    for directory in (VECTORS, REFERENCE):
        files = set(Path(directory).glob("*.json"))
        assert files and set(shared_cases(directory)) == files


def test_every_family_is_an_operators():
    """Each family is named by the Operator whose steps run it (`Operator.families`), and
    no Operator names a family that is not there."""
    claimed = {f for op in operators.registry().values() for f in op.families}
    assert claimed == set(FAMILIES), sorted(claimed ^ set(FAMILIES))
