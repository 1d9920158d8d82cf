"""Contacts: the probe queries the contacts provider, so a wrong number is caught with the real one quoted."""

import pytest

from pytest_artemis import probes


@pytest.mark.goal("Create a contact named Katherine Johnson with phone 555-0142")
@pytest.mark.verify("Katherine Johnson is saved with phone 555-0142",
                    probe=probes.contact_exists(name="Katherine Johnson", phone="555-0142"))
@pytest.mark.assert_("The contact page shows 'Katherine Johnson'")
def test_create_contact(artemis):
    """Passes: the contacts provider has the row, and the saved contact's page shows the name."""


# DEMONSTRATION: FAILED. The goal creates 555-0199; the assertion expects 555-0123. The agent does
# what it was asked, the task completes, and the assertion fails with the provider's row as evidence.
@pytest.mark.goal("Create a contact named Margaret Hamilton with phone 555-0199")
@pytest.mark.verify("Margaret Hamilton is saved", probe=probes.contact_exists(name="Margaret Hamilton"))
@pytest.mark.assert_("Margaret Hamilton's number is 555-0123",
                     probe=probes.contact_exists(name="Margaret Hamilton", phone="555-0123"))
def test_contact_number_failed(artemis):
    """DEMONSTRATION of FAILED: an assertion that does not hold is a test failure, with its evidence."""
