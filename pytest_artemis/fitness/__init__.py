"""A model fitness kit: score a model as operator and as checker on the simulated phone before trusting it.

``python -m pytest_artemis.fitness --model MODEL`` runs a built-in, versioned suite: the operator part runs
goals with the model as planner and operator and reads back by probe whether each was reached; the checker
part walks scripted paths (no model acts) and has the model judge items whose honest verdicts are known, in
the real harness, under the rules of evidence. It writes ``fitness.json`` (``FitnessReport``) and
``fitness.html`` and prints a verdict line: fit or unfit as operator and as checker, against ``THRESHOLDS``.
``scripted:honest``, ``scripted:liar`` and ``scripted:sloppy`` are built-in scripted models.
"""

from .candidates import Candidate, Candidates, candidates
from .kit import SUITE_VERSION, run_kit
from .schema import SCHEMA_VERSION, FitnessReport
from .thresholds import THRESHOLDS, Thresholds

__all__ = [
    "SCHEMA_VERSION",
    "SUITE_VERSION",
    "THRESHOLDS",
    "Candidate",
    "Candidates",
    "FitnessReport",
    "Thresholds",
    "candidates",
    "run_kit",
]
