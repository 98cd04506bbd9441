class OpRegistry(type):
    """Registers each concrete operator class under its own `op_name` when the class statement runs."""

    ops = {}

    def __new__(mcls, name, bases, ns):
        cls = super().__new__(mcls, name, bases, ns)
        # TODO: skip abstract classes; check op_name and forward; refuse duplicates; then register
        return cls

    @classmethod
    def get(mcls, op_name):
        raise NotImplementedError("get")

    @classmethod
    def names(mcls):
        raise NotImplementedError("names")
