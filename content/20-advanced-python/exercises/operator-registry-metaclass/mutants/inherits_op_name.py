class OpRegistry(type):
    """A metaclass that registers every concrete operator class under its op_name when the class is created."""

    ops = {}

    def __new__(mcls, name, bases, ns):
        cls = super().__new__(mcls, name, bases, ns)
        if ns.get("abstract", False):
            return cls
        op_name = getattr(cls, "op_name", None)  # its own, not inherited: a subclass must choose a name
        if not isinstance(op_name, str) or not op_name:
            raise TypeError(f"{name}: a concrete operator needs its own op_name (or abstract = True)")
        if not callable(getattr(cls, "forward", None)):
            raise TypeError(f"{name}: operator {op_name!r} has no forward()")
        if op_name in mcls.ops:
            raise ValueError(f"{name}: op_name {op_name!r} is already taken by {mcls.ops[op_name].__name__}")
        mcls.ops[op_name] = cls  # only after every check, so a rejected class leaves no trace
        return cls

    @classmethod
    def get(mcls, op_name):
        if op_name not in mcls.ops:
            raise KeyError(f"unknown operator {op_name!r}; known: {sorted(mcls.ops)}")
        return mcls.ops[op_name]

    @classmethod
    def names(mcls):
        return sorted(mcls.ops)
