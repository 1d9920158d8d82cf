"""Device farms: ``--artemis-device`` specs, lease backends (file locks, DeviceFarmer STF) and device health.

Knows nothing of pytest: the plugin drives it (``plugin/lease.py``, ``plugin/xdist.py``). Light to import:
filelock, adbutils and urllib load with the backend that needs them.
"""
