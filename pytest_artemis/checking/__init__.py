"""The checking half: the rules of evidence and everything that turns recorded evidence into verdicts
(grounding, judging, checkpoints, settlement, vacuity, the ledger and the tally). The acting half — plan,
operate, record — is ``pytest_artemis.engine``; neither half trusts the other's words."""
