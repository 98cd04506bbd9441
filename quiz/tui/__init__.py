"""The Textual app: screens per mode, widgets, one stylesheet (imports no torch)."""
