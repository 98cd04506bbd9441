"""Small widgets and text charts used by the screens."""
