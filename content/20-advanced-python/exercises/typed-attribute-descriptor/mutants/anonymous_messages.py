class Typed:
    """A data descriptor that checks the type and range of an attribute and keeps each instance's value."""

    def __init__(self, kind, *, min=None, max=None):
        self.kind, self.min, self.max = kind, min, max
        self.name = None

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self  # looked up on the class
        try:
            return obj.__dict__[self.name]
        except KeyError:
            raise AttributeError(f"{self.name} has not been set") from None

    def __set__(self, obj, value):
        if isinstance(value, bool) or not isinstance(value, self.kind):
            if not (self.kind is float and type(value) is int):
                raise TypeError(f"value must be {self.kind.__name__}, got {type(value).__name__}")
            value = float(value)
        if self.min is not None and value < self.min:
            raise ValueError(f"value must be >= {self.min}, got {value}")
        if self.max is not None and value > self.max:
            raise ValueError(f"value must be <= {self.max}, got {value}")
        obj.__dict__[self.name] = value  # a data descriptor wins over the instance dict, so the same name is safe
