"""Operator classes made by calling the learner's metaclass, exactly as a class statement does
(`OpRegistry(name, bases, namespace)`); each check uses its own op names, since the registry is shared."""

from quiz.grader.say import say


def _forward_add(self, x, y):
    return x + y


def _forward_mul(self, x, y):
    return x * y


def _base(entry):
    return entry("Operator", (), {"abstract": True, "describe": lambda self: f"op {self.op_name}"})


def _expect(exc_type, action, what_en, what_zh, must_name=None):
    try:
        action()
    except exc_type as exc:
        if must_name:
            assert must_name in str(exc), say(f"{what_en}: the {exc_type.__name__} ({exc}) should name {must_name!r}",
                                              f"{what_zh}：{exc_type.__name__}（{exc}）应指出 {must_name!r}")
        return
    except Exception as exc:  # noqa: BLE001 - the wrong kind of error is the finding
        assert False, say(f"{what_en}: raised {type(exc).__name__} ({exc}), expected {exc_type.__name__}",
                          f"{what_zh}：抛出了 {type(exc).__name__}（{exc}），应为 {exc_type.__name__}")
    assert False, say(f"{what_en}: no {exc_type.__name__} was raised", f"{what_zh}：没有抛出 {exc_type.__name__}")


def _names(entry, prefix):
    got = entry.names()
    assert isinstance(got, list) and all(isinstance(n, str) for n in got), say(
        f"names() should return a list of str, got {got!r}", f"names() 应返回 str 列表，实际是 {got!r}")
    return [n for n in got if n.startswith(prefix)]


def test_registers_on_class_creation(entry):
    base = _base(entry)
    entry("Add", (base,), {"op_name": "t1.add", "forward": _forward_add})
    entry("Mul", (base,), {"op_name": "t1.mul", "forward": _forward_mul})
    got = _names(entry, "t1.")
    assert got == ["t1.add", "t1.mul"], say(
        f"after class Add (op_name 't1.add') and class Mul (op_name 't1.mul'), names() lists {got}; expected "
        f"['t1.add', 't1.mul'], sorted, registered by op_name (not by the class name), and the abstract base not at all",
        f"定义了 Add（op_name 't1.add'）和 Mul（op_name 't1.mul'）之后 names() 是 {got}；应为 ['t1.add', 't1.mul']，"
        f"升序、按 op_name（不是类名）注册，抽象基类不注册",
    )
    op = entry.get("t1.mul")()
    got = op.forward(6, 7)
    assert got == 42, say(f"get('t1.mul')().forward(6, 7) gave {got!r}, expected 42",
                          f"get('t1.mul')().forward(6, 7) 得到 {got!r}，应为 42")
    got = op.describe()
    assert got == "op t1.mul", say(f"an operator should inherit the base's methods: describe() gave {got!r}",
                                   f"算子应继承基类的方法：describe() 得到 {got!r}")


def test_abstract_not_registered(entry):
    base = _base(entry)
    entry("Elementwise", (base,), {"abstract": True, "op_name": "t2.elementwise", "forward": _forward_add})
    got = _names(entry, "t2.") + [n for n in entry.names() if n in ("Operator", "Elementwise")]
    assert got == [], say(f"only abstract classes so far (one with op_name 't2.elementwise'), yet names() lists {got}",
                          f"目前只有抽象类（其中一个有 op_name 't2.elementwise'），names() 却列出了 {got}")
    _expect(KeyError, lambda: entry.get("t2.none"), "get('t2.none') for an unknown name",
            "对未知名字 get('t2.none')", must_name="t2.none")


def test_rejects_bad_classes(entry):
    base = _base(entry)
    _expect(TypeError, lambda: entry("NoName", (base,), {"forward": _forward_add}),
            "a concrete class without op_name", "没有 op_name 的具体类", must_name="NoName")
    _expect(TypeError, lambda: entry("NoForward", (base,), {"op_name": "t3.nofwd"}),
            "class NoForward with op_name 't3.nofwd' but no forward()", "有 op_name 't3.nofwd' 但没有 forward() 的 NoForward",
            must_name="NoForward")
    _expect(KeyError, lambda: entry.get("t3.nofwd"),
            "get('t3.nofwd') after that class was rejected (check everything before registering)",
            "那个类被拒绝之后 get('t3.nofwd')（先全部检查，再注册）")
    _expect(TypeError, lambda: entry("EmptyName", (base,), {"op_name": "", "forward": _forward_add}),
            "class EmptyName with op_name '' (op_name must be a non-empty str)",
            "op_name 为 '' 的 EmptyName（op_name 必须是非空字符串）", must_name="EmptyName")
    _expect(TypeError, lambda: entry("IntName", (base,), {"op_name": 7, "forward": _forward_add}),
            "class IntName with op_name 7 (op_name must be a non-empty str)",
            "op_name 为 7 的 IntName（op_name 必须是非空字符串）", must_name="IntName")
    got = entry.names()
    assert "" not in got and 7 not in got, say(
        f"after classes with op_name '' and 7 were rejected, names() is {got!r}: a rejected class leaves no trace",
        f"op_name 为 '' 和 7 的类被拒绝之后 names() 是 {got!r}：被拒绝的类不能留下痕迹")


def test_duplicates_and_inheritance(entry):
    base = _base(entry)
    add = entry("Add", (base,), {"op_name": "t4.add", "forward": _forward_add})
    _expect(ValueError, lambda: entry("Add2", (base,), {"op_name": "t4.add", "forward": _forward_mul}),
            "a second class with op_name 't4.add'", "第二个 op_name 为 't4.add' 的类", must_name="t4.add")
    got = entry.get("t4.add")().forward(2, 3)
    assert got == 5, say(f"after the rejected duplicate, get('t4.add') should still be the first class: forward(2, 3) "
                         f"gave {got!r}, expected 5",
                         f"重复的类被拒绝后，get('t4.add') 仍应是第一个类：forward(2, 3) 得到 {got!r}，应为 5")
    _expect(TypeError, lambda: entry("AddCopy", (add,), {}),
            "class AddCopy(Add) with no op_name of its own (an inherited op_name is not its name)",
            "class AddCopy(Add) 自己没有 op_name（继承来的 op_name 不算）", must_name="AddCopy")
    entry("AddRelu", (add,), {"op_name": "t4.add_relu"})
    got = entry.get("t4.add_relu")().forward(2, 3)
    assert got == 5, say(f"AddRelu(Add) with its own op_name inherits forward: forward(2, 3) gave {got!r}",
                         f"AddRelu(Add) 有自己的 op_name，继承 forward：forward(2, 3) 得到 {got!r}")
    got = _names(entry, "t4.")
    assert got == ["t4.add", "t4.add_relu"], say(f"names() lists {got}, expected ['t4.add', 't4.add_relu']",
                                                 f"names() 是 {got}，应为 ['t4.add', 't4.add_relu']")
