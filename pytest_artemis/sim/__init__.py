"""A simulated Android phone behind a loopback ADB server.

``SimServer`` speaks the real ADB host protocol, so adbutils and the ``adb``
command-line client drive it exactly like an emulator; ``SimPhone`` is one
simulated device (launcher, Clock, Settings, Contacts) with fault injection.
This package imports nothing from the rest of pytest_artemis.
"""

from .phone import SimPhone
from .server import SimServer
from .state import Alarm, Contact, PhoneState

__all__ = ["Alarm", "Contact", "PhoneState", "SimPhone", "SimServer"]
