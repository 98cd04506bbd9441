class Typed:
    """Typed(kind, *, min=None, max=None): a validated attribute, one value per instance."""

    def __init__(self, kind, *, min=None, max=None):
        self.kind, self.min, self.max = kind, min, max

    def __set_name__(self, owner, name):
        # TODO: remember the attribute's name
        pass

    def __get__(self, obj, objtype=None):
        # TODO: the descriptor itself on the class; the instance's value, or AttributeError if never set
        raise NotImplementedError("__get__")

    def __set__(self, obj, value):
        # TODO: check the type (no bool; an int is fine for float), then the range, then store on obj
        raise NotImplementedError("__set__")
