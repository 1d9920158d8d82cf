"""A test's secrets: typed by the harness when the operator asks for one by name, and kept from every model
— masked in the hierarchy a model reads and blacked out in the screenshots it is sent and the run keeps."""

from __future__ import annotations

import html
import io
import re
import threading
from collections.abc import Mapping, Sequence
from typing import Literal, TypeVar

from PIL import Image, ImageDraw
from pydantic import BaseModel

from pytest_artemis.contracts import Bounds, ProbeResult, ProbeSpec, Role, UIElement, UsageError
from pytest_artemis.device.base import Capture, Device, DeviceInfo, Hierarchy
from pytest_artemis.device.probe_table import ProbeTable
from pytest_artemis.models import CallLog, ChatMessage, Model, ModelReply, ModelSet, RequestContext
from pytest_artemis.store.redact import MIN_SECRET_LENGTH, Redactor

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
T = TypeVar("T", bound=BaseModel)


class SecretBook:
    """The secrets of one run by name, and the fields the harness typed one into."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self._values = dict(check_secrets(values))
        self._typed: set[tuple[str, Bounds]] = set()
        self._lock = threading.Lock()
        self.redactor = Redactor(self._values.values())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._values)

    def value(self, name: str) -> str | None:
        return self._values.get(name)

    def typed_into(self, element: UIElement) -> None:
        """The field a secret was typed into: masked on every later screen that shows it."""
        with self._lock:
            self._typed.add((element.resource_id, element.bounds))

    def mask_text(self, text: str) -> str:
        """``text`` with each secret replaced by ``[secret:NAME]`` (the names are no secret)."""
        for name, value in self._values.items():
            text = text.replace(value, f"[secret:{name}]")
        return text

    def masks(self, element: UIElement) -> bool:
        """Whether ``element`` shows (or may show) a secret: it holds one, is a password field, or is a
        field one was typed into."""
        with self._lock:
            typed = (element.resource_id, element.bounds) in self._typed
        return typed or element.password or any(v in element.text or v in element.content_desc
                                                 for v in self._values.values())

    def element(self, element: UIElement) -> UIElement:
        if not self.masks(element):
            return element
        return element.model_copy(update={"text": self.mask_text(element.text),
                                          "content_desc": self.mask_text(element.content_desc)})

    def hierarchy(self, dumped: Hierarchy) -> Hierarchy:
        xml = dumped.xml
        for name, value in self._values.items():
            for form in {value, html.escape(value, quote=True), html.escape(value, quote=False)}:
                xml = xml.replace(form, f"[secret:{name}]")
        return Hierarchy(xml=xml, elements=tuple(self.element(e) for e in dumped.elements))

    def capture(self, capture: Capture, elements: Sequence[UIElement]) -> Capture:
        """``capture`` with the bounds of every element showing a secret filled black."""
        boxes = [e.bounds for e in elements if self.masks(e)]
        if not boxes:
            return capture
        with Image.open(io.BytesIO(capture.png)) as img:
            rgb = img.convert("RGB")
        draw = ImageDraw.Draw(rgb)
        for b in boxes:
            draw.rectangle((b.left, b.top, max(b.left, b.right - 1), max(b.top, b.bottom - 1)), fill="black")
        buf = io.BytesIO()
        rgb.save(buf, format="PNG")
        return Capture.from_png(buf.getvalue(), capture.width, capture.height)


def check_secrets(values: object) -> dict[str, str]:
    """The secrets as given (``{name: value}``), or a UsageError naming what is wrong (never the value)."""
    if not isinstance(values, Mapping):
        raise UsageError(f"artemis_secrets must return a dict of name to value, got {type(values).__name__}")
    for name, value in values.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise UsageError(f"artemis_secrets: the name {name!r} must be a word (letters, digits, _)")
        if not isinstance(value, str) or len(value) < MIN_SECRET_LENGTH:
            raise UsageError(f"artemis_secrets: the secret {name!r} must be a string of at least "
                             f"{MIN_SECRET_LENGTH} characters")
        if not all(" " <= c <= "~" for c in value) or "%s" in value:
            raise UsageError(f"artemis_secrets: the secret {name!r} can only hold printable ASCII (Android's "
                             "`input text` types nothing else) and no '%s'")
    return dict(values)


class MaskedDevice(Device):
    """The run's device as every model sees it: hierarchies with secrets masked, screenshots with the
    fields showing one blacked out (a screenshot dumps the hierarchy too, to find them)."""

    def __init__(self, device: Device, book: SecretBook) -> None:
        self._device = device
        self._book = book

    @property
    def serial(self) -> str:
        return self._device.serial

    @property
    def name(self) -> str:
        return self._device.name

    @property
    def probe_table(self) -> ProbeTable:
        return self._device.probe_table

    def screenshot(self) -> Capture:
        elements = self._device.hierarchy().elements
        return self._book.capture(self._device.screenshot(), elements)

    def hierarchy(self) -> Hierarchy:
        return self._book.hierarchy(self._device.hierarchy())

    def tap(self, x: int, y: int) -> None:
        self._device.tap(x, y)

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self._device.long_press(x, y, duration_ms)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self._device.swipe(x1, y1, x2, y2, duration_ms)

    def type_text(self, text: str) -> None:
        self._device.type_text(text)

    def clear_text(self, chars: int) -> None:
        self._device.clear_text(chars)

    def key(self, name: str) -> None:
        self._device.key(name)

    def launch(self, package: str, activity: str | None = None) -> None:
        self._device.launch(package, activity)

    def stop(self, package: str) -> None:
        self._device.stop(package)

    def reset(self, scope: Literal["app", "full"], package: str | None = None) -> None:
        self._device.reset(scope, package)

    def current_app(self) -> str:
        return self._device.current_app()

    def check(self, argv: Sequence[str], *, timeout: float | None = None) -> str:
        return self._device.check(argv, timeout=timeout)

    def push(self, data: bytes, remote: str) -> None:
        self._device.push(data, remote)

    def probe(self, kind: str, **params: str) -> ProbeResult:
        return self._device.probe(kind, **params)

    def probe_spec(self, spec: ProbeSpec) -> ProbeResult:
        return self._device.probe_spec(spec)

    def info(self) -> DeviceInfo:
        return self._device.info()


class MaskedModel:
    """A role's model behind the secrets: every request's text and context pass through ``mask_text``
    first (the last line behind the masked screens: a probe's output, an error message)."""

    def __init__(self, model: Model, book: SecretBook) -> None:
        self._model = model
        self._book = book
        self.name = model.name

    async def complete(self, role: Role, messages: Sequence[ChatMessage], schema: type[T], *,
                       context: RequestContext | None = None, calls: CallLog | None = None) -> ModelReply[T]:
        masked = [ChatMessage(m.role, self._book.mask_text(m.text), m.images) for m in messages]
        if context is not None:
            dumped = context.model_dump(mode="json")
            context = RequestContext.model_validate(_mask_json(dumped, self._book))
        return await self._model.complete(role, masked, schema, context=context, calls=calls)


def _mask_json(value: object, book: SecretBook) -> object:
    if isinstance(value, str):
        return book.mask_text(value)
    if isinstance(value, list):
        return [_mask_json(v, book) for v in value]
    if isinstance(value, dict):
        return {k: _mask_json(v, book) for k, v in value.items()}
    return value


def masked_models(models: ModelSet, book: SecretBook) -> ModelSet:
    """Every role's model behind ``book`` (one wrapper per distinct model)."""
    wrapped: dict[int, MaskedModel] = {}

    def wrap(model: Model) -> Model:
        return wrapped.setdefault(id(model), MaskedModel(model, book))

    return ModelSet(planner=wrap(models.planner), operator=wrap(models.operator),
                    checker=wrap(models.checker))
