"""Contacts: list, "Create contact" editor (First name, Last name, Phone) and a
detail screen.  Tap a field to focus it; ``input text`` types into it, DEL
deletes one character and ENTER moves to the next field."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import Contact, Page
from ..ui import Kit
from ..widgets import Node, bind

if TYPE_CHECKING:
    from ..phone import SimPhone

PACKAGE = "com.android.contacts"
LABEL = "Contacts"
MAIN_ACTIVITY = "com.android.contacts.activities.PeopleActivity"
ICON_COLOR = "#1E8E3E"
ACTIVITIES = {
    MAIN_ACTIVITY: "list",
    "com.android.contacts.activities.ContactEditorActivity": "editor",
}
_PAGE_ACTIVITY = {
    "list": MAIN_ACTIVITY,
    "editor": "com.android.contacts.activities.ContactEditorActivity",
    "detail": "com.android.contacts.quickcontact.QuickContactActivity",
}
_ID = PACKAGE + ":id/"
_FIELDS = (("first", "First name"), ("last", "Last name"), ("phone", "Phone"))
_AVATAR_COLORS = ("#C5221F", "#1967D2", "#188038", "#E37400", "#9334E6", "#007B83")



def new_page(name: str, uri: str = "") -> Page:
    """Fresh page for ``am start`` (the editor starts blank; intent data is ignored)."""
    return new_editor_page() if name == "editor" else Page(name)

def activity(page: Page) -> str:
    """Activity class for a contacts page."""
    return _PAGE_ACTIVITY.get(page.name, MAIN_ACTIVITY)


def text_filter(page: Page, key: str, text: str) -> str:
    """Phone numbers accept dial-pad characters only."""
    if key == "phone":
        return "".join(c for c in text if c.isdigit() or c in "+-() #*")
    return text


def on_enter(phone: SimPhone, page: Page) -> None:
    """ENTER moves focus to the next editor field."""
    if page.name != "editor":
        return
    keys = [k for k, _ in _FIELDS]
    for i, key in enumerate(keys[:-1]):
        if phone.is_focused(page, key):
            phone.focus(page, keys[i + 1], select_all=False)
            return


def new_editor_page() -> Page:
    """A blank "Create contact" page."""
    return Page("editor", {"first": "", "last": "", "phone": ""})


def _open_editor(phone: SimPhone) -> None:
    page = new_editor_page()
    phone.push_page(PACKAGE, page)
    phone.focus(page, "first", select_all=False)


def _save(phone: SimPhone, page: Page) -> None:
    d = page.data
    contact = Contact(d["first"].strip(), d["last"].strip(), d["phone"].strip())
    phone.pop_page()
    if not (contact.first or contact.last or contact.phone):
        return
    phone.contacts.append(contact)
    _open_detail(phone, contact)
    phone.show_toast("Contact saved")


def _avatar_color(name: str) -> str:
    return _AVATAR_COLORS[sum(map(ord, name)) % len(_AVATAR_COLORS)]


def build(phone: SimPhone, kit: Kit, page: Page) -> Node:
    """Window for the contact list, editor or detail page."""
    win = kit.window(PACKAGE)
    s = kit.s
    if page.name == "editor":
        y = kit.appbar(win, "Create contact", back=lambda x, yy: phone.pop_page(), pkg=PACKAGE)
        win.add(kit.button((kit.w - s(300), kit.top + s(45), kit.w - s(40), kit.top + s(145)), "Save",
                           _ID + "editor_menu_save_button", lambda x, yy: _save(phone, page)))
        y += s(40)
        for key, hint in _FIELDS:
            win.add(kit.edit((s(96), y, kit.w - s(96), y + s(150)), page.data[key], hint,
                             _ID + ("phone_number" if key == "phone" else f"{key}_name"),
                             phone.is_focused(page, key),
                             bind(phone.focus, page, key, select_all=False)))
            y += s(190)
        return win
    if page.name == "detail":
        contact: Contact = page.data["contact"]
        kit.appbar(win, "", back=lambda x, yy: phone.pop_page(), pkg=PACKAGE)
        y = kit.top + s(220)
        d = s(260)
        win.add(Node(((kit.w - d) // 2, y, (kit.w + d) // 2, y + d), cls="android.widget.ImageView",
                     desc=contact.display_name, rid=_ID + "photo", style="avatar",
                     color=_avatar_color(contact.display_name)))
        y += d + s(40)
        win.add(kit.text((0, y, kit.w, y + s(120)), contact.display_name, size=64, align="center",
                         rid=_ID + "large_title"))
        y += s(200)
        row = Node((0, y, kit.w, y + s(200)), cls="android.widget.RelativeLayout",
                   rid=_ID + "expanding_entry_card_item", clickable=False, style="row")
        row.add(kit.text((s(96), y + s(20), kit.w, y + s(120)), contact.phone or "No phone number",
                         size=50, rid=_ID + "header"))
        row.add(kit.text((s(96), y + s(115), kit.w, y + s(180)), "Mobile", size=38, color="text2",
                         rid=_ID + "sub_header"))
        win.add(row)
        return win
    y = kit.appbar(win, "Contacts", pkg=PACKAGE)
    lst = Node((0, y, kit.w, kit.bottom), cls="android.widget.ListView", rid="android:id/list")
    win.add(lst)
    for contact in sorted(phone.contacts, key=lambda c: c.display_name.lower()):
        h = s(170)
        name = contact.display_name or contact.phone
        item = Node((0, y, kit.w, y + h), cls="android.view.ViewGroup", rid=_ID + "cliv_name_textview",
                    clickable=True, focusable=True, desc=name, action=bind(_open_detail, phone, contact))
        item.add(Node((s(60), y + s(25), s(180), y + s(145)), cls="android.widget.QuickContactBadge",
                      desc=name, rid=_ID + "cliv_photo", style="avatar", color=_avatar_color(name)))
        item.add(kit.text((s(230), y, kit.w - s(48), y + h), name, size=50, rid=_ID + "cliv_name"))
        lst.add(item)
        y += h
    if not phone.contacts:
        lst.add(kit.text((0, y, kit.w, y + s(300)), "No contacts", size=48, color="text2",
                         align="center"))
    kit.fab(win, PACKAGE, "floating_action_button", "Create contact",
            lambda x, yy: _open_editor(phone))
    return win


def _open_detail(phone: SimPhone, contact: Contact) -> None:
    phone.push_page(PACKAGE, Page("detail", {"contact": contact}))
