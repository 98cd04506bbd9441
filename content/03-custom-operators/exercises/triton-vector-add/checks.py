"""The torch reference for the vector-add kernel."""


def reference(x, y):
    return x + y
