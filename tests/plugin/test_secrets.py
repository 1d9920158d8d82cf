"""Secrets end to end on the simulated phone: the harness types a secret the operator asks for by name, and
no artifact, JUnit file, terminal line or model request holds its value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from plugin_helpers import run_junit

from pytest_artemis.store import read_run

SECRET = "Zq7-hunter2-Vx"

LOGIN = '''
import json
from pathlib import Path

import pytest

from pytest_artemis import probes
from pytest_artemis.models import ModelSet
from pytest_artemis.testing import (
    ScriptedModel, finish, on_screen, scripted_agent, tap, type_secret, type_text,
)

SEEN = []


@pytest.fixture
def artemis_secrets():
    return {"username": "SECRET_VALUE"}


@pytest.fixture
def artemis_model():
    agent = scripted_agent(tap("Contacts"), tap("Create contact"),
                           type_secret("username", into="First name"), type_text("555 0199", into="Phone"),
                           tap("Save"), finish(), goal=on_screen("555 0199"))
    inner = agent.operator

    async def respond(request):
        SEEN.append({"role": request.role, "text": [m.text for m in request.messages],
                     "context": request.context.model_dump(mode="json") if request.context else None})
        return (await inner.complete(request.role, request.messages, request.schema,
                                     context=request.context)).value

    yield ModelSet.uniform(ScriptedModel(respond))
    Path("requests.json").write_text(json.dumps(SEEN))


@pytest.mark.goal("Create the contact 555 0199 for the account")
@pytest.mark.verify("The contact 555 0199 is saved", probe=probes.contact_exists(phone="555 0199"))
def test_login(artemis):
    assert any(r.action.kind == "type_secret" for s in artemis.steps for r in s.results)
'''.replace("SECRET_VALUE", SECRET)


def test_a_secret_is_typed_by_name_and_appears_nowhere(pytester: pytest.Pytester):
    pytester.makepyfile(test_login=LOGIN)
    result, cases = run_junit(pytester, "--artemis-device=sim", "-p", "no:randomly", "-v", "-rA")
    case = cases["test_login"]
    assert case.props["artemis.outcome"] == "PASSED", result.stdout.str()
    run = read_run(case.props["artemis.artifacts"])
    typed = [r for s in run.steps for r in s.results if r.action.kind == "type_secret"]
    assert typed and typed[0].ok and typed[0].typed is None and "'username'" in typed[0].detail
    requests = json.loads((pytester.path / "requests.json").read_text())
    operator = [r for r in requests if r["role"] == "operator"]
    assert any("[secret:username]" in json.dumps(r) for r in operator)  # the field, masked
    assert any("type_secret" in r["text"][0] for r in operator)  # the prompt says how, with secrets only
    places = {"terminal": result.stdout.str() + result.stderr.str(),
              "junit": (pytester.path / "junit.xml").read_text(),
              "requests": (pytester.path / "requests.json").read_text()}
    for path in Path(pytester.path / ".artemis").rglob("*"):
        if path.is_file():
            places[str(path)] = path.read_bytes().decode("latin-1")
    assert [where for where, text in places.items() if SECRET in text] == []
    # the saved screenshot blacks the field out: the contact page's title, which shows the name
    last = run.steps[-1]
    png = Image.open(run.dir / "screens" / f"{last.pre_screen}.png").convert("RGB")
    title = next(e for e in read_view(run, last) if e.resource_id.endswith(":id/large_title"))
    assert title.text == "[secret:username]"
    box = png.crop((title.bounds.left, title.bounds.top, title.bounds.right, title.bounds.bottom))
    assert box.getextrema() == ((0, 0), (0, 0), (0, 0))


def read_view(run, step):
    """The elements of a step's pre-screen hierarchy, as the journal kept it (masked)."""
    from pytest_artemis.device.hierarchy import parse_hierarchy

    return parse_hierarchy((run.dir / "screens" / step.hierarchy).read_text())


def test_no_secrets_no_secret_instruction(pytester: pytest.Pytester):
    pytester.makepyfile(test_plain='''
        import json
        from pathlib import Path

        import pytest
        from pytest_artemis.models import ModelSet
        from pytest_artemis.testing import ScriptedModel, finish, scripted_agent, tap

        @pytest.fixture
        def artemis_model():
            inner = scripted_agent(tap("Clock"), finish()).operator
            seen = []

            async def respond(request):
                schema = json.dumps(request.schema.model_json_schema())
                seen.append([m.text for m in request.messages] + [schema])
                return (await inner.complete(request.role, request.messages, request.schema,
                                             context=request.context)).value

            yield ModelSet.uniform(ScriptedModel(respond))
            Path("seen.json").write_text(json.dumps(seen))

        @pytest.mark.goal("Open Clock")
        def test_plain(artemis):
            pass
    ''')
    run_junit(pytester, "--artemis-device=sim", "-p", "no:randomly")
    assert "type_secret" not in (pytester.path / "seen.json").read_text()
