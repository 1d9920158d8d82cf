"""Runtime permissions through Debian's adb: ``pm grant``/``revoke``/``clear`` and ``dumpsys package`` in
Android 13-14's formats, and the permission controller's dialog an app set to ask shows at its start."""

from __future__ import annotations

import re

CLOCK = "com.google.android.deskclock"
CONTACTS = "com.android.contacts"
NOTIFS = "android.permission.POST_NOTIFICATIONS"
PC = "com.google.android.permissioncontroller"
PC_ID = "com.android.permissioncontroller:id/"


def _runtime(cli, pkg: str) -> dict[str, tuple[bool, str]]:
    """Runtime permission → (granted, flags) from ``dumpsys package PKG``."""
    out = cli.out("dumpsys", "package", pkg)
    block = out[out.index("      runtime permissions:"):]
    return {m[1]: (m[2] == "true", m[3])
            for m in re.finditer(r"^ {8}(\S+): granted=(true|false), flags=\[ ([A-Z_|]*)\]$", block, re.M)}


def _launch(cli, pkg: str) -> None:
    cli.shell("monkey", "-p", pkg, "-c", "android.intent.category.LAUNCHER", "1")


def test_dumpsys_package_lists_requested_install_and_runtime_permissions(cli):
    out = cli.out("dumpsys", "package", CLOCK)
    assert out.startswith(f"Packages:\n  Package [{CLOCK}] (")
    assert "    requested permissions:\n      android.permission.POST_NOTIFICATIONS\n" in out
    assert "    install permissions:\n      android.permission.WAKE_LOCK: granted=true\n" in out
    assert re.search(r"    User 0: ceDataInode=\d+ installed=true hidden=false suspended=false "
                     r"distractionFlags=0 stopped=false notLaunched=false enabled=0 instant=false "
                     r"virtual=false\n", out)
    assert _runtime(cli, CLOCK) == {
        NOTIFS: (True, "GRANTED_BY_DEFAULT|USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED"),
        "android.permission.READ_MEDIA_AUDIO": (True, "GRANTED_BY_DEFAULT|USER_SENSITIVE_WHEN_GRANTED|"
                                                      "USER_SENSITIVE_WHEN_DENIED")}
    assert cli.out("dumpsys", "package", "com.nope") == ""
    assert "Package [com.android.systemui]" in cli.out("dumpsys", "package")


def test_pm_grant_and_revoke_change_it_and_refuse_as_android_does(cli):
    assert cli.shell("pm", "revoke", CLOCK, NOTIFS).stdout == b""
    assert _runtime(cli, CLOCK)[NOTIFS][0] is False
    assert cli.shell("cmd", "package", "grant", "--user", "0", CLOCK, NOTIFS).returncode == 0
    assert _runtime(cli, CLOCK)[NOTIFS][0] is True
    refusals = {
        "android.permission.CAMERA": "java.lang.SecurityException: Package com.google.android.deskclock "
                                     "has not requested permission android.permission.CAMERA",
        "android.permission.INTERNET": "java.lang.SecurityException: Permission android.permission.INTERNET "
                                       "requested by com.google.android.deskclock is not a changeable "
                                       "permission type",
        "android.permission.NO_SUCH": "java.lang.IllegalArgumentException: Unknown permission: "
                                      "android.permission.NO_SUCH",
    }
    for perm, exception in refusals.items():
        for verb in ("grant", "revoke"):
            proc = cli.shell("pm", verb, CLOCK, perm, check=False)
            err = proc.stderr.decode()
            assert proc.returncode == 255 and proc.stdout == b"", (perm, verb)
            assert err.startswith(f"\nException occurred while executing '{verb}':\n{exception}\n\tat "), err
    # Android 11+ only logs an unknown package (PermissionManagerServiceImpl): nothing printed, exit 0.
    assert cli.shell("pm", "grant", "com.nope", NOTIFS).stdout == b""
    missing = cli.shell("pm", "grant", CLOCK, check=False)
    assert (missing.returncode, missing.stderr) == (1, b"Error: no permission specified\n")


def test_pm_clear_resets_the_permissions_with_the_apps_data(cli):
    cli.shell("pm", "revoke", CLOCK, NOTIFS)
    assert cli.out("pm", "clear", CLOCK) == "Success\n"
    assert _runtime(cli, CLOCK)[NOTIFS][0] is True  # granted by default again
    failed = cli.shell("pm", "clear", "com.nope", check=False)
    assert (failed.returncode, failed.stderr) == (1, b"Failed\n")


def test_an_app_set_to_ask_shows_the_permission_dialog_at_its_start_and_allow_grants(cli, server):
    phone = server.phone("emulator-5554")
    _launch(cli, CLOCK)
    assert not cli.nodes(package=PC)  # a default phone: nothing asks
    assert cli.out("simctl", "permissions", "ask", CLOCK) == f"ok: permissions ask {CLOCK}\n"
    assert _runtime(cli, CLOCK)[NOTIFS] == (False, "USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED")
    cli.shell("am", "force-stop", CLOCK)
    _launch(cli, CLOCK)
    message = cli.node(rid=PC_ID + "permission_message")
    assert (message.get("text"), message.get("package")) == ("Allow Clock to send you notifications?", PC)
    assert [n.get("text") for n in cli.nodes(cls="android.widget.Button", package=PC)] == [
        "Allow", "Don\u2019t allow"]
    grant = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity"
    assert phone.state.foreground == f"{PC}/{grant}"
    cli.tap(desc="Add alarm")  # the dialog is modal
    assert cli.nodes(rid=PC_ID + "permission_message")
    cli.tap(rid=PC_ID + "permission_allow_button")
    assert _runtime(cli, CLOCK)[NOTIFS] == (
        True, "USER_SET|USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED")
    assert phone.state.foreground == f"{CLOCK}/com.android.deskclock.DeskClock" and not cli.nodes(package=PC)
    cli.shell("am", "force-stop", CLOCK)
    _launch(cli, CLOCK)
    assert not cli.nodes(package=PC)  # granted: nothing to ask
    cli.shell("pm", "clear", CLOCK)
    _launch(cli, CLOCK)
    assert cli.nodes(rid=PC_ID + "permission_message")  # cleared: it asks again, as after an install


def test_dont_allow_twice_and_the_app_stops_asking_back_leaves_it_unanswered(cli, server):
    phone = server.phone("emulator-5554")
    cli.shell("simctl", "permissions", "ask")  # Clock and Contacts
    _launch(cli, CONTACTS)
    assert cli.node(rid=PC_ID + "permission_message").get("text") == "Allow Contacts to access your contacts?"
    cli.shell("input", "keyevent", "BACK")
    assert not cli.nodes(package=PC) and _runtime(cli, CONTACTS)["android.permission.READ_CONTACTS"] == (
        False, "USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED")
    for answer, flags in (("USER_SET", "USER_SET|"), ("USER_FIXED", "USER_SET|USER_FIXED|")):
        cli.shell("am", "force-stop", CONTACTS)
        _launch(cli, CONTACTS)
        cli.tap(text="Don\u2019t allow")
        assert _runtime(cli, CONTACTS)["android.permission.WRITE_CONTACTS"] == (
            False, flags + "USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED"), answer
    cli.shell("am", "force-stop", CONTACTS)
    _launch(cli, CONTACTS)
    assert not cli.nodes(package=PC)  # denied twice: Android does not ask again
    assert phone.state.permissions[CONTACTS]["android.permission.GET_ACCOUNTS"] is False
    cli.shell("simctl", "permissions", "default")
    assert all(phone.state.permissions[CONTACTS].values())
