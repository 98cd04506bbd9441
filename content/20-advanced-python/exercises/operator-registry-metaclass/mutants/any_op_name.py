# Wrong: only checks that op_name is present in the namespace, so op_name = "" or op_name = 7 registers.
class OpRegistry(type):
    ops = {}

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        if ns.get("abstract") is True:
            return
        op = ns.get("op_name")
        if op is None:
            raise TypeError(f"{name}: a concrete operator needs its own non-empty str op_name")
        if not callable(getattr(cls, "forward", None)):
            raise TypeError(f"{name} (op {op!r}) has no callable forward")
        if op in OpRegistry.ops:
            raise ValueError(f"op_name {op!r} is already registered by {OpRegistry.ops[op].__name__}")
        OpRegistry.ops[op] = cls

    @classmethod
    def get(mcls, op_name):
        try:
            return OpRegistry.ops[op_name]
        except KeyError:
            raise KeyError(f"no operator named {op_name!r}") from None

    @classmethod
    def names(mcls):
        return sorted(OpRegistry.ops)
