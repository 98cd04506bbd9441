"""A config class built from the learner's descriptor, as a framework would declare one; Python itself calls
__set_name__, __get__ and __set__, and the grader records each call."""

from quiz.grader.say import say


def _config(entry):
    class TrainConfig:
        lr = entry(float, min=0.0, max=1.0)
        batch_size = entry(int, min=1, max=4096)
        run_name = entry(str)

    return TrainConfig


def _expect(exc_type, action, attr, what_en, what_zh):
    try:
        got = action()
    except exc_type as exc:
        assert attr in str(exc), say(
            f"{what_en}: the {exc_type.__name__} says {str(exc)!r}, which does not name the attribute {attr!r} "
            f"(keep the name from __set_name__ for messages)",
            f"{what_zh}：{exc_type.__name__} 的消息是 {str(exc)!r}，没有指出属性 {attr!r}（用 __set_name__ 记下的名字写消息）",
        )
        return
    except Exception as exc:  # noqa: BLE001 - the wrong kind of error is the finding
        assert False, say(f"{what_en}: raised {type(exc).__name__} ({exc}), expected {exc_type.__name__}",
                          f"{what_zh}：抛出了 {type(exc).__name__}（{exc}），应为 {exc_type.__name__}")
    assert False, say(f"{what_en}: no {exc_type.__name__} (got {got!r})", f"{what_zh}：没有抛出 {exc_type.__name__}（得到 {got!r}）")


def test_per_instance(entry):
    Config = _config(entry)
    a, b = Config(), Config()
    a.lr, a.batch_size, a.run_name = 0.1, 32, "a"
    b.lr, b.batch_size, b.run_name = 0.5, 256, "b"
    got_a = (a.lr, a.batch_size, a.run_name)
    got_b = (b.lr, b.batch_size, b.run_name)
    assert got_a == (0.1, 32, "a") and got_b == (0.5, 256, "b"), say(
        f"two configs: a = (lr 0.1, batch_size 32, run_name 'a'), b = (0.5, 256, 'b'); reading back gives a = {got_a}, "
        f"b = {got_b}. A value kept on the descriptor is shared by every instance; one storage slot for all fields "
        f"mixes the attributes up: store per instance, under the attribute's own name",
        f"两个配置：a = (lr 0.1, batch_size 32, run_name 'a')，b = (0.5, 256, 'b')；读回得到 a = {got_a}，b = {got_b}。"
        f"值存在描述符上会被所有实例共享；所有字段共用一个存储位置会把属性弄混：按实例、按属性自己的名字存",
    )


def test_type_checks(entry):
    Config = _config(entry)
    c = Config()

    def put(attr, value):
        return lambda: setattr(c, attr, value)

    _expect(TypeError, put("batch_size", "32"), "batch_size", "batch_size = '32'", "batch_size = '32'")
    _expect(TypeError, put("batch_size", 32.0), "batch_size", "batch_size = 32.0", "batch_size = 32.0")
    _expect(TypeError, put("batch_size", True), "batch_size",
            "batch_size = True (bool is a subclass of int, and still not a batch size)",
            "batch_size = True（bool 是 int 的子类，但不是批大小）")
    _expect(TypeError, put("run_name", 7), "run_name", "run_name = 7", "run_name = 7")
    c.lr = 1
    got = c.lr
    assert got == 1.0 and type(got) is float, say(
        f"lr = 1 (an int for a float field) should be accepted and read back as the float 1.0, got {got!r}",
        f"lr = 1（float 字段给了 int）应被接受并读回为 float 1.0，实际是 {got!r}",
    )


def test_range_checks(entry):
    Config = _config(entry)
    c = Config()

    def put(attr, value):
        return lambda: setattr(c, attr, value)

    _expect(ValueError, put("lr", 1.5), "lr", "lr = 1.5 (max 1.0)", "lr = 1.5（上限 1.0）")
    _expect(ValueError, put("lr", -0.1), "lr", "lr = -0.1 (min 0.0)", "lr = -0.1（下限 0.0）")
    _expect(ValueError, put("batch_size", 0), "batch_size", "batch_size = 0 (min 1)", "batch_size = 0（下限 1）")
    for attr, value in (("lr", 0.0), ("lr", 1.0), ("batch_size", 1), ("batch_size", 4096)):
        setattr(c, attr, value)
        got = getattr(c, attr)
        assert got == value, say(f"{attr} = {value} is on the (inclusive) bound and should be kept; read back {got!r}",
                                 f"{attr} = {value} 正好在（闭区间的）边界上，应被接受；读回 {got!r}")


def test_failed_set_keeps_value(entry):
    Config = _config(entry)
    c = Config()
    c.batch_size = 64
    for bad in (0, "big"):
        try:
            c.batch_size = bad
        except (TypeError, ValueError):
            pass
    got = c.batch_size
    assert got == 64, say(
        f"batch_size = 64, then the rejected values 0 and 'big': reading gives {got!r}, expected 64 (validate "
        f"before storing)",
        f"batch_size = 64，之后 0 和 'big' 被拒绝：读到 {got!r}，应为 64（先校验再存）",
    )


def test_unset_and_class_access(entry):
    Config = _config(entry)
    c = Config()
    _expect(AttributeError, lambda: c.run_name, "run_name", "reading run_name before it was set",
            "在设置之前读取 run_name")
    got = Config.lr
    assert got is not None and not isinstance(got, (int, float, str)), say(
        f"TrainConfig.lr (on the class, no instance) should give the descriptor itself, got {got!r}",
        f"TrainConfig.lr（在类上访问，没有实例）应返回描述符本身，实际是 {got!r}",
    )
