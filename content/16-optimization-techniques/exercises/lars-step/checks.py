"""The LARS formula computed by hand in float64, and the tests: ratios, the update, zero-norm layers, two steps."""

import math

import torch

from quiz.grader.say import say

_Generator = torch.Generator  # taken when the checks load, before any learner code runs
_randn = torch.randn
_zeros = torch.zeros

HYPER = {"lr": 0.5, "momentum": 0.9, "weight_decay": 5e-4, "eta": 0.001, "eps": 1e-8}


def _norm(t):
    return math.sqrt(sum(float(x) * float(x) for x in t.reshape(-1).tolist()))


def step(params, grads, bufs, lr, momentum, weight_decay, eta, eps, mistake=None):
    """(ratios, new params, new buffers) by the statement's formula, or with one usual mistake."""
    if mistake == "global":
        wn = math.sqrt(sum(_norm(w) ** 2 for w in params))
        gn = math.sqrt(sum(_norm(g) ** 2 for g in grads))
        shared = eta * wn / (gn + weight_decay * wn + eps) if wn > 0 and gn > 0 else 1.0
    ratios, new_w, new_v = [], [], []
    for w, g, v in zip(params, grads, bufs):
        wn, gn = _norm(w), _norm(g)
        decay = 0.0 if mistake == "no_decay" else weight_decay
        if mistake == "global":
            ratio = shared
        elif mistake == "decayed_grad_norm" and wn > 0 and gn > 0:
            ratio = eta * wn / (_norm(g + weight_decay * w) + eps)
        elif (wn > 0 and gn > 0) or mistake == "no_guard":
            ratio = eta * wn / (gn + decay * wn + eps)
        else:
            ratio = 1.0
        d = g if mistake == "no_decay_in_step" else g + weight_decay * w
        if mistake == "momentum_first":
            v2 = momentum * v + d
            w2 = w - lr * ratio * v2
        else:
            v2 = momentum * v + lr * ratio * d
            w2 = w - v2
        ratios.append(ratio)
        new_w.append(w2)
        new_v.append(v2)
    return ratios, new_w, new_v


MISTAKES = {
    "no_decay": ("the trust ratio left weight_decay * ||w|| out of its denominator",
                 "trust ratio 的分母里漏掉了 weight_decay * ||w||"),
    "global": ("one trust ratio from the norms of all layers together: LARS computes one per layer",
               "用所有层合在一起的范数算了一个 trust ratio：LARS 要每层各算一个"),
    "no_guard": ("no zero-norm guard: a layer with ||w|| = 0 or ||g|| = 0 must use ratio 1",
                 "没有零范数保护：||w|| = 0 或 ||g|| = 0 的层 ratio 必须取 1"),
    "decayed_grad_norm": ("the denominator was ||g + weight_decay * w|| (the variant some implementations use); "
                          "this exercise asks for the paper's ||g|| + weight_decay * ||w||",
                          "分母用了 ||g + weight_decay * w||（有些实现的变体）；本题要论文的 ||g|| + weight_decay * ||w||"),
    "no_decay_in_step": ("weight decay was left out of the step: the buffer accumulates lr * ratio * (g + weight_decay * w), "
                         "not lr * ratio * g",
                         "更新量里漏掉了 weight decay：buffer 累加的是 lr * ratio * (g + weight_decay * w)，"
                         "不是 lr * ratio * g"),
    "momentum_first": ("momentum was applied to the raw g + weight_decay * w and lr * ratio only afterwards: "
                       "the buffer must accumulate lr * ratio * (g + weight_decay * w)",
                       "动量作用在原始的 g + weight_decay * w 上，lr * ratio 放到了后面："
                       "buffer 里累加的应是 lr * ratio * (g + weight_decay * w)"),
}


def make_layers(seed, specs):
    """specs: (shape, weight scale, gradient scale, momentum buffer scale); a scale of 0 gives zeros."""
    gen = _Generator().manual_seed(seed)
    params, grads, bufs = [], [], []
    for shape, ws, gs, vs in specs:
        params.append(_randn(shape, generator=gen, dtype=torch.float64) * ws)
        grads.append(_randn(shape, generator=gen, dtype=torch.float64) * gs)
        bufs.append(_randn(shape, generator=gen, dtype=torch.float64) * vs)
    return params, grads, bufs


SPECS = [((16, 8), 0.5, 0.01, 1e-3), ((8,), 0.05, 0.2, 1e-4), ((4, 4, 3), 2.0, 3.0, 1e-2), ((10,), 1.0, 1e-4, 0.0)]


def _close(a, b):
    return torch.allclose(a, b, rtol=1e-9, atol=1e-13)


def _which_mistake(params, grads, bufs, got_ratios, got_w):
    for kind, (en, zh) in MISTAKES.items():
        ratios, new_w, _ = step(params, grads, bufs, **HYPER, mistake=kind)
        same_ratios = got_ratios is None or all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15)
                                                 for a, b in zip(ratios, got_ratios))
        if same_ratios and all(_close(a, b) for a, b in zip(new_w, got_w)):
            return say(f" (this looks like: {en})", f"（看起来是：{zh}）")
    return ""


def _call(entry, params, grads, bufs):
    got = entry(params, grads, bufs, **HYPER)
    assert isinstance(got, (list, tuple)) and len(got) == len(params), say(
        f"lars_step should return a list of {len(params)} trust ratios (one per layer), got {got!r}"[:300],
        f"lars_step 应返回 {len(params)} 个 trust ratio 组成的列表（每层一个），实际是 {got!r}"[:300],
    )
    try:
        ratios = [float(r) for r in got]
    except (TypeError, ValueError, RuntimeError):
        raise AssertionError(say(f"the trust ratios should be floats, got {got!r}"[:300],
                                 f"trust ratio 应是 float，实际是 {got!r}"[:300])) from None
    for i, (w, v) in enumerate(zip(params, bufs)):
        assert w.dtype == torch.float64 and v.dtype == torch.float64, say(
            f"layer {i}: params and buffers must stay float64 tensors updated in place",
            f"第 {i} 层：参数和 buffer 必须仍是原地更新的 float64 张量")
    return ratios


def _check(entry, specs, seed, what):
    params, grads, bufs = make_layers(seed, specs)
    keep = [[t.clone() for t in ts] for ts in (params, grads, bufs)]
    ratios = _call(entry, params, grads, bufs)
    want_r, want_w, want_v = step(*keep, **HYPER)
    hint = _which_mistake(*keep, ratios, params)
    for i, (a, b) in enumerate(zip(ratios, want_r)):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15), say(
            f"{what}: layer {i} (||w|| = {_norm(keep[0][i]):.4g}, ||g|| = {_norm(keep[1][i]):.4g}): trust ratio "
            f"should be {b:.6g}, got {a:.6g}{hint}",
            f"{what}：第 {i} 层（||w|| = {_norm(keep[0][i]):.4g}，||g|| = {_norm(keep[1][i]):.4g}）：trust ratio "
            f"应为 {b:.6g}，实际是 {a:.6g}{hint}",
        )
    for i, (g, g0) in enumerate(zip(grads, keep[1])):
        assert torch.equal(g, g0), say(f"{what}: layer {i}'s gradient was changed in place; leave grads alone",
                                       f"{what}：第 {i} 层的梯度被原地修改了；不要改动 grads")
    for i in range(len(specs)):
        if torch.equal(params[i], keep[0][i]) and not torch.equal(want_w[i], keep[0][i]):
            raise AssertionError(say(
                f"{what}: layer {i}'s weights did not change: update params in place (w.sub_(v)); "
                f"`w = w - v` only rebinds a local name",
                f"{what}：第 {i} 层的权重没有变化：要原地更新参数（w.sub_(v)）；`w = w - v` 只是重新绑定了局部变量"))
        err = (params[i] - want_w[i]).abs().max().item()
        assert _close(params[i], want_w[i]), say(
            f"{what}: layer {i}'s weights after the step are off by up to {err:.3g} from "
            f"w - (momentum * v + lr * ratio * (g + weight_decay * w)){hint}",
            f"{what}：第 {i} 层更新后的权重与 w - (momentum * v + lr * ratio * (g + weight_decay * w)) "
            f"最多相差 {err:.3g}{hint}",
        )
        assert _close(bufs[i], want_v[i]), say(
            f"{what}: layer {i}'s momentum buffer should be momentum * v + lr * ratio * (g + weight_decay * w), "
            f"off by up to {(bufs[i] - want_v[i]).abs().max().item():.3g}{hint}",
            f"{what}：第 {i} 层的动量 buffer 应为 momentum * v + lr * ratio * (g + weight_decay * w)，"
            f"最多相差 {(bufs[i] - want_v[i]).abs().max().item():.3g}{hint}",
        )
    return params, grads, bufs


def test_trust_ratio_per_layer(entry):
    _check(entry, SPECS, 1, say("four layers of very different scales", "四层，尺度相差很大"))


def test_update_with_momentum(entry):
    specs = [((6, 5), 1.0, 0.5, 0.2), ((5,), 0.3, 0.02, 0.05)]
    _check(entry, specs, 2, say("non-zero momentum buffers", "非零的动量 buffer"))


def test_zero_norm_layers(entry):
    specs = [((4, 4), 0.0, 0.3, 0.0), ((6,), 0.8, 0.0, 0.1), ((3, 3), 0.4, 0.05, 0.0)]
    _check(entry, specs, 3, say("a zero-initialized layer and a layer with a zero gradient",
                                "一个零初始化的层和一个梯度为零的层"))


def test_two_steps(entry):
    params, grads, bufs = make_layers(4, SPECS)
    gen = _Generator().manual_seed(40)
    want_w, want_v = [t.clone() for t in params], [t.clone() for t in bufs]
    for k in range(2):
        g = [_randn(t.shape, generator=gen, dtype=torch.float64) * s for t, (_, _, s, _) in zip(params, SPECS)]
        keep_w, keep_v = [t.clone() for t in want_w], [t.clone() for t in want_v]
        _, want_w, want_v = step(keep_w, g, keep_v, **HYPER)
        _call(entry, params, [t.clone() for t in g], bufs)
        for i in range(len(SPECS)):
            hint = ""
            if not _close(params[i], want_w[i]):
                _, mw, _ = step(keep_w, g, keep_v, **HYPER, mistake="momentum_first")
                hint = MISTAKES["momentum_first"] if _close(params[i], mw[i]) else ("", "")
                hint = say(f" (this looks like: {hint[0]})", f"（看起来是：{hint[1]}）") if hint[0] else ""
            assert _close(params[i], want_w[i]), say(
                f"step {k + 1} of 2, reusing the buffers: layer {i}'s weights are off by up to "
                f"{(params[i] - want_w[i]).abs().max().item():.3g}{hint}",
                f"第 {k + 1}/2 步，沿用 buffer：第 {i} 层的权重最多相差 "
                f"{(params[i] - want_w[i]).abs().max().item():.3g}{hint}",
            )
            want_w[i], want_v[i] = params[i].clone(), bufs[i].clone()
