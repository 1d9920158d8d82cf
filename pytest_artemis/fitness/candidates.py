"""The models under test, per role, from the plugin's model options: a built-in scripted model
(``scripted:honest`` …) or any litellm model name (``openai/gpt-4o``; ``openai/NAME`` with an api base for a
local OpenAI-compatible server, which needs no key)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from pytest_artemis.contracts import UsageError
from pytest_artemis.models import LiteLLMModel, Model
from pytest_artemis.plugin.options import ArtemisOptions

from .checker_part import CHECKER_REASKS
from .personas import persona_of, scripted_model, unknown_scripted


@dataclass(frozen=True)
class Candidate:
    """One model name and how to build it (a scripted one afresh for each run: it remembers its place on a
    route)."""

    name: str
    api_base: str | None = None
    api_key: str | None = None

    def __post_init__(self) -> None:
        if problem := unknown_scripted(self.name):
            raise UsageError(problem)

    @property
    def scripted(self) -> bool:
        return persona_of(self.name) is not None

    def build(self) -> Model:
        """A model for one run."""
        if self.scripted:
            return scripted_model(self.name)
        return LiteLLMModel(self.name, api_base=self.api_base, api_key=self.api_key, reasks=CHECKER_REASKS)


@dataclass(frozen=True)
class Candidates:
    """The candidate of each role (None: that part is not scored)."""

    planner: Candidate | None
    operator: Candidate | None
    checker: Candidate | None

    def operator_pair(self) -> tuple[Model, Model]:
        """A fresh (planner, operator) pair for one goal; litellm clients of the same name are shared."""
        assert self.planner is not None and self.operator is not None
        operator = self.operator.build()
        return (operator if self.planner == self.operator else self.planner.build()), operator


def candidates(options: ArtemisOptions) -> Candidates:
    """Each role's candidate: ``--checker-model``/``--operator-model``/``--planner-model``, else ``--model``;
    without either, the planner is the operator's model (the operator part scores them together). A part
    whose role has no model is not run; a usage error when no role has one."""
    def make(name: str | None) -> Candidate | None:
        return Candidate(name, options.api_base, options.api_key) if name else None

    operator = make(options.operator_model or options.model)
    planner = make(options.planner_model or options.model) or operator
    checker = make(options.checker_model or options.model)
    if operator is None and checker is None:
        raise UsageError("no model to score: pass --model MODEL (or --operator-model / --checker-model), "
                         "e.g. --model scripted:honest, --model openai/gpt-4o, or --model openai/NAME "
                         "--api-base http://127.0.0.1:PORT/v1 for a local server (env ARTEMIS_MODEL)")
    return Candidates(planner=planner if operator is not None else None, operator=operator, checker=checker)


def shown_base(api_base: str | None) -> str | None:
    """The api base as a report may show it: no user, password, query or fragment."""
    if not api_base:
        return None
    parts = urlsplit(api_base)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
