"""One screen per mode."""
