"""The simulated apps.  Each app module exposes PACKAGE, LABEL, MAIN_ACTIVITY,
ACTIVITIES (class name -> page name), ICON_COLOR, ``build(phone, kit, page)``,
``activity(page)``, ``new_page(name, uri="")`` (the page an ``am start`` opens with the intent's data URI, or
None when the activity finishes at once), ``text_filter(page, key, text)`` and ``on_enter(phone, page)``."""

from . import clock, contacts, settings

APPS = {m.PACKAGE: m for m in (clock, settings, contacts)}

#: Installed apps with a launcher icon but no behaviour: label and icon colour.
INERT_APPS = {
    "com.android.chrome": ("Chrome", "#EA4335"),
    "com.android.camera2": ("Camera", "#5F6368"),
}
