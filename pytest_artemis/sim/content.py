"""``content query`` for the simulated phone: contacts, DeskClock alarms and settings rows."""

from __future__ import annotations

from .shell import Ctx


def _rows(ctx: Ctx, uri: str) -> list[dict[str, str]] | None:
    p = ctx.phone
    if uri in ("content://com.android.contacts/data/phones",
               "content://com.android.contacts/data"):
        return [{"display_name": c.display_name, "number": c.phone, "data1": c.phone,
                 "_id": str(i + 1), "contact_id": str(i + 1),
                 "mimetype": "vnd.android.cursor.item/phone_v2"}
                for i, c in enumerate(p.contacts) if c.phone]
    if uri in ("content://contacts/people", "content://com.android.contacts/contacts"):
        return [{"display_name": c.display_name, "number": c.phone, "_id": str(i + 1),
                 "name": c.display_name, "has_phone_number": str(int(bool(c.phone)))}
                for i, c in enumerate(p.contacts)]
    if uri in ("content://com.android.deskclock/alarms", "content://com.google.android.deskclock/alarms"):
        return [{"_id": str(i + 1), "hour": str(a.hour), "minutes": str(a.minute),
                 "daysofweek": "0", "enabled": str(int(a.enabled)), "vibrate": "1",
                 "label": a.label, "delete_after_use": "0"} for i, a in enumerate(p.alarms)]
    for ns in ("system", "secure", "global"):
        if uri == f"content://settings/{ns}":
            return [{"_id": str(i + 1), "name": k, "value": v}
                    for i, (k, v) in enumerate(sorted(p.settings[ns].items()))]
    return None


def content(ctx: Ctx, args: list[str]) -> int:
    """``content query --uri URI [--projection a:b] [--where "col='v'"]``."""
    def opt(name: str) -> str | None:
        return args[args.index(name) + 1] if name in args[:-1] else None

    uri = opt("--uri")
    if args[:1] != ["query"] or not uri:
        ctx.err("usage: adb shell content query --uri <URI> [--projection <PROJECTION>] "
                "[--where <WHERE>]\n")
        return 1
    rows = _rows(ctx, uri)
    if rows is None:
        # As the real tool does: the error and stack trace on stderr, and still exit status 0.
        ctx.err(f"Error while accessing provider:{uri.split('/')[2] if '//' in uri else uri}\n"
                f"java.lang.IllegalArgumentException: Unknown URL {uri}\n"
                "\tat com.android.providers.contacts.ContactsProvider2.query(ContactsProvider2.java:6281)\n"
                "\tat com.android.commands.content.Content$QueryCommand.onExecute(Content.java:668)\n")
        return 0
    where = opt("--where")
    if where:
        col, eq, val = where.partition("=")
        if not eq:
            ctx.err(f"Error while accessing provider: unsupported where clause: {where}\n")
            return 0
        rows = [r for r in rows if r.get(col.strip()) == val.strip().strip("'\"")]
    projection = opt("--projection")
    if not rows:
        ctx.out("No result found.\n")
        return 0
    for n, row in enumerate(rows):
        cols = projection.split(":") if projection else list(row)
        ctx.out(f"Row: {n} " + ", ".join(f"{c}={row.get(c, 'NULL')}" for c in cols) + "\n")
    return 0
