"""Every case file in ../shared is run by the suite, or its family is named here as not
ported yet: the tests that read ../shared select the ported families (conftest.shared_cases),
and this test keeps that selection honest in both directions."""
from armsim.kernels.harness import FAMILIES

from conftest import REFERENCE, VECTORS, all_families

#: families with cases in ../shared that armsim has no port of yet (issues 9 and 10)
NOT_PORTED = {
    "conv_s4",
}


def test_every_shared_family_is_ported_or_named_unported():
    present = all_families(VECTORS) | all_families(REFERENCE)
    assert present - set(FAMILIES) == NOT_PORTED


def test_no_ported_family_is_listed_as_unported():
    assert not NOT_PORTED & set(FAMILIES)

