"""The simulated apps.  Each app module exposes PACKAGE, LABEL, MAIN_ACTIVITY,
ACTIVITIES (class name -> page name), ICON_COLOR, ``build(phone, kit, page)``,
``activity(page)``, ``new_page(name, uri="")`` (the page an ``am start`` opens with the intent's data URI, or
None when the activity finishes at once), ``text_filter(page, key, text)`` and ``on_enter(phone, page)``, and
optionally ``on_intent(phone, action, extras, data, mime) -> bool`` for the implicit intents ``am start``
resolves to it (``activity_manager``)."""

from . import browser, clock, contacts, settings

APPS = {m.PACKAGE: m for m in (clock, settings, contacts, browser)}

#: Installed apps with a launcher icon but no behaviour: label and icon colour.
INERT_APPS = {
    "com.android.camera2": ("Camera", "#5F6368"),
}
