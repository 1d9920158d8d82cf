"""``cmd SERVICE ...``: the shell commands of system services the simulated phone has (``statusbar``, and
``package``, which ``pm`` is on Android)."""

from __future__ import annotations

from . import package_manager, shade
from .shell import Ctx

SERVICES = {"package": package_manager.pm, "statusbar": shade.statusbar}


def cmd(ctx: Ctx, args: list[str]) -> int:
    """Run a service's shell command; ``cmd -l`` lists the services."""
    if args[:1] == ["-l"]:
        ctx.out("Currently running services:\n" + "".join(f"  {name}\n" for name in sorted(SERVICES)))
        return 0
    if not args:
        ctx.err("cmd: No service specified; use -l to list all running services. Use -w to start and "
                "wait for a service.\n")
        return 20
    service = SERVICES.get(args[0])
    if service is None:
        ctx.err(f"cmd: Can't find service: {args[0]}\n")
        return 20
    return service(ctx, args[1:])
