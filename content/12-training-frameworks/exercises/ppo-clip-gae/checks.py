"""A reference GAE written as the explicit discounted sum of TD errors (not the backward recursion), the
clipped surrogate with torch.clamp and torch.minimum, hand-computed cases, and the usual mistakes
recomputed so that a wrong answer can be named."""

import torch

from quiz.grader.say import say

_exp = torch.exp  # taken when the checks load, before any learner code runs
_clamp = torch.clamp
_minimum = torch.minimum


def _next_values(values, last_value):
    return torch.cat([values[1:], last_value.reshape(1, *values.shape[1:])])


def reference_gae(rewards, values, dones, last_value, gamma, lam):
    """A_t = sum over l of (gamma * lam)^l * (episode still running from t to t+l) * delta_(t+l)."""
    alive = 1.0 - dones
    delta = rewards + gamma * _next_values(values, last_value) * alive - values
    T = rewards.shape[0]
    adv = torch.zeros_like(rewards)
    for t in range(T):
        weight = torch.ones_like(rewards[0])
        for k in range(t, T):
            adv[t] += weight * delta[k]
            weight = weight * gamma * lam * alive[k]
    return adv, adv + values


def _recursion(rewards, values, dones, last_value, gamma, lam, bootstrap_done=False, shift=False, carry_done=False):
    """The backward recursion with one of the usual mistakes switched on."""
    T = rewards.shape[0]
    adv = torch.zeros_like(rewards)
    nxt, nv = torch.zeros_like(last_value), last_value
    for t in reversed(range(T)):
        if shift:
            alive = 1.0 - dones[t + 1] if t + 1 < T else torch.ones_like(last_value)
        else:
            alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * nv * (1.0 if bootstrap_done else alive) - values[t]
        nxt = delta + gamma * lam * (1.0 if carry_done else alive) * nxt
        adv[t] = nxt
        nv = values[t]
    return adv


def _gae_mistake(got_adv, got_ret, args):
    rewards, values, dones, last_value, gamma, lam = args
    adv, _ = reference_gae(*args)
    close = lambda a, b: a.shape == b.shape and torch.allclose(a, b, atol=1e-9)  # noqa: E731
    if close(got_adv, adv) and close(got_ret, adv):
        return say(" The returns equal the advantages: the value target is advantages + values (the lambda-return).",
                   " returns 等于 advantages：价值目标应是 advantages + values（即 lambda-return）。")
    if close(got_adv, _recursion(rewards, values, dones, last_value, gamma, 1.0)):
        return say(" These are the advantages without lambda: the recursion is A_t = delta_t + gamma * lam * (1 - done_t) * A_(t+1).",
                   " 这是漏掉 lambda 的 advantages：递推式是 A_t = delta_t + gamma * lam * (1 - done_t) * A_(t+1)。")
    if close(got_adv, _recursion(rewards, values, dones, last_value, gamma, lam, bootstrap_done=True)):
        return say(" This bootstraps across an episode end: when done_t = 1 the TD error is r_t - V(s_t), without gamma * V of "
                   "the next state, which belongs to a new episode.",
                   " 这在回合结束处仍然做了 bootstrap：done_t = 1 时 TD 误差是 r_t - V(s_t)，不加 gamma * V(下一个状态)，"
                   "那个状态属于新的回合。")
    if close(got_adv, _recursion(rewards, values, dones, last_value, gamma, lam, carry_done=True)):
        return say(" This stops the bootstrap at an episode end but still carries the next episode's advantage back "
                   "across it: (1 - done_t) multiplies the carried term gamma * lam * A_(t+1) too.",
                   " 这在回合结束处停止了 bootstrap，却仍把下一个回合的 advantage 递推了回来：(1 - done_t) 也要乘在"
                   "递推项 gamma * lam * A_(t+1) 上。")
    if close(got_adv, _recursion(rewards, values, dones, last_value, gamma, lam, shift=True)):
        return say(" This reads dones[t + 1] at step t (the 'next observation starts an episode' convention); here dones[t] = 1 "
                   "means the episode ended with step t's reward, so step t uses dones[t].",
                   " 这在第 t 步读了 dones[t + 1]（“下一个观测是新回合开头”的约定）；本题 dones[t] = 1 表示回合随第 t 步的奖励结束，"
                   "所以第 t 步用 dones[t]。")
    return ""


def _gae(entry, rewards, values, dones, last_value, gamma, lam):
    inputs = (rewards, values, dones, last_value)
    kept = [t.clone() for t in inputs]
    out = entry.gae(rewards, values, dones, last_value, gamma, lam)
    changed = [n for n, t, k in zip(("rewards", "values", "dones", "last_value"), inputs, kept) if not torch.equal(t, k)]
    assert not changed, say(f"PPO.gae changed its input(s) {changed} in place; compute into new tensors",
                            f"PPO.gae 原地修改了输入 {changed}；请把结果算到新的 tensor 里")
    for t, k in zip(inputs, kept):
        t.copy_(k)
    assert isinstance(out, tuple) and len(out) == 2, say(
        f"PPO.gae should return a pair (advantages, returns), got {type(out).__name__}",
        f"PPO.gae 应返回二元组 (advantages, returns)，实际返回了 {type(out).__name__}")
    for name, t in zip(("advantages", "returns"), out):
        assert isinstance(t, torch.Tensor) and tuple(t.shape) == tuple(rewards.shape), say(
            f"{name} should be a tensor shaped like rewards {tuple(rewards.shape)}, got "
            f"{tuple(t.shape) if isinstance(t, torch.Tensor) else type(t).__name__}",
            f"{name} 应是与 rewards 同形状 {tuple(rewards.shape)} 的 tensor，实际是 "
            f"{tuple(t.shape) if isinstance(t, torch.Tensor) else type(t).__name__}")
    return out[0].detach().to(torch.float64), out[1].detach().to(torch.float64)


def _f64(values):
    return torch.tensor(values, dtype=torch.float64)


def test_gae_hand_computed(entry):
    # gamma = lam = 0.5; the episode ends after step 1, so step 2 starts a new one
    args = (_f64([1.0, 0.0, 2.0]), _f64([0.5, 1.0, 0.5]), _f64([0.0, 1.0, 0.0]), _f64(2.0), 0.5, 0.5)
    adv, ret = _gae(entry, *args)
    want_adv, want_ret = _f64([0.75, -1.0, 2.5]), _f64([1.25, 0.0, 3.0])
    ok = torch.allclose(adv, want_adv, atol=1e-12) and torch.allclose(ret, want_ret, atol=1e-12)
    assert ok, say(
        "rewards [1, 0, 2], values [0.5, 1, 0.5], dones [0, 1, 0], last_value 2, gamma = lam = 0.5: "
        "delta_2 = 2 + 0.5*2 - 0.5 = 2.5; delta_1 = 0 - 1 = -1 (the episode ends, no bootstrap); "
        "delta_0 = 1 + 0.5*1 - 0.5 = 1; A_2 = 2.5, A_1 = -1 (the recursion stops at the end), "
        f"A_0 = 1 + 0.25*(-1) = 0.75; returns = A + V = [1.25, 0, 3]. Got advantages {adv.tolist()}, "
        f"returns {ret.tolist()}." + _gae_mistake(adv, ret, args),
        "rewards [1, 0, 2]，values [0.5, 1, 0.5]，dones [0, 1, 0]，last_value 2，gamma = lam = 0.5："
        "delta_2 = 2 + 0.5*2 - 0.5 = 2.5；delta_1 = 0 - 1 = -1（回合结束，不 bootstrap）；"
        "delta_0 = 1 + 0.5*1 - 0.5 = 1；A_2 = 2.5，A_1 = -1（递推在回合结束处截断），"
        f"A_0 = 1 + 0.25*(-1) = 0.75；returns = A + V = [1.25, 0, 3]。实际 advantages 为 {adv.tolist()}，"
        f"returns 为 {ret.tolist()}。" + _gae_mistake(adv, ret, args),
    )


def test_gae_matches_reference_multi_env(entry):
    gen = torch.Generator().manual_seed(3)
    T, N = 9, 4
    rewards = torch.randn(T, N, generator=gen, dtype=torch.float64)
    values = torch.randn(T, N, generator=gen, dtype=torch.float64)
    dones = (torch.rand(T, N, generator=gen, dtype=torch.float64) < 0.25).to(torch.float64)
    dones[T - 1, 0], dones[0, 1] = 1.0, 1.0  # an episode that ends on the last step, one that ends at once
    last_value = torch.randn(N, generator=gen, dtype=torch.float64)
    args = (rewards, values, dones, last_value, 0.99, 0.95)
    adv, ret = _gae(entry, *args)
    want_adv, want_ret = reference_gae(*args)
    err = max(float((adv - want_adv).abs().max()), float((ret - want_ret).abs().max()))
    assert err < 1e-10, say(
        f"{N} environments x {T} steps (time is dim 0; each column is one environment with its own episode ends), "
        f"gamma 0.99, lam 0.95: advantages or returns differ from the reference by up to {err:.4g}."
        + _gae_mistake(adv, ret, args),
        f"{N} 个环境 x {T} 步（时间在第 0 维；每一列是一个环境，各有自己的回合结束点），gamma 0.99，lam 0.95："
        f"advantages 或 returns 与参考最多相差 {err:.4g}。" + _gae_mistake(adv, ret, args),
    )


def test_gae_lambda_limits(entry):
    gen = torch.Generator().manual_seed(8)
    T, gamma = 6, 0.9
    rewards = torch.randn(T, generator=gen, dtype=torch.float64)
    values = torch.randn(T, generator=gen, dtype=torch.float64)
    dones = torch.zeros(T, dtype=torch.float64)
    last_value = _f64(0.7)
    adv0, _ = _gae(entry, rewards, values, dones, last_value, gamma, 0.0)
    td = rewards + gamma * _next_values(values, last_value) - values
    assert torch.allclose(adv0, td, atol=1e-12), say(
        f"with lam = 0 every advantage is the one-step TD error r_t + gamma * V_(t+1) - V_t = {[round(v, 4) for v in td.tolist()]}; "
        f"got {[round(v, 4) for v in adv0.tolist()]}",
        f"lam = 0 时每个 advantage 都是一步 TD 误差 r_t + gamma * V_(t+1) - V_t = {[round(v, 4) for v in td.tolist()]}；"
        f"实际是 {[round(v, 4) for v in adv0.tolist()]}",
    )
    adv1, ret1 = _gae(entry, rewards, values, dones, last_value, gamma, 1.0)
    mc = _f64([sum(gamma ** (k - t) * float(rewards[k]) for k in range(t, T)) + gamma ** (T - t) * 0.7 for t in range(T)])
    assert torch.allclose(ret1, mc, atol=1e-12), say(
        f"with lam = 1 and no episode end the returns are the discounted reward sums bootstrapped with "
        f"gamma^(T-t) * last_value: {[round(v, 4) for v in mc.tolist()]}; got {[round(v, 4) for v in ret1.tolist()]}",
        f"lam = 1 且没有回合结束时，returns 是折扣奖励和，再加上 gamma^(T-t) * last_value 的 bootstrap："
        f"{[round(v, 4) for v in mc.tolist()]}；实际是 {[round(v, 4) for v in ret1.tolist()]}",
    )
    assert torch.allclose(adv1, mc - values, atol=1e-12), say(
        "with lam = 1 the advantages are the Monte-Carlo returns minus V(s_t)",
        "lam = 1 时 advantages 等于蒙特卡洛回报减去 V(s_t)",
    )


def reference_loss(logp_new, logp_old, advantages, clip_eps):
    ratio = _exp(logp_new - logp_old.detach())
    surrogate = _minimum(ratio * advantages, _clamp(ratio, 1 - clip_eps, 1 + clip_eps) * advantages)
    return -surrogate.mean()


def _loss(entry, logp_new, logp_old, advantages, clip_eps):
    out = entry.clipped_loss(logp_new, logp_old, advantages, clip_eps)
    assert isinstance(out, torch.Tensor) and out.dim() == 0, say(
        f"PPO.clipped_loss should return a 0-dim tensor, got "
        f"{tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__}",
        f"PPO.clipped_loss 应返回 0 维 tensor，实际是 {tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__}")
    return out


def _loss_mistake(got_value, got_grad, logp_new, logp_old, adv, eps):
    ratio = _exp(logp_new.detach() - logp_old)
    clipped = _clamp(ratio, 1 - eps, 1 + eps) * adv
    candidates = [
        (-clipped.mean(), say(" It matches -mean(clamp(ratio) * A) without the min: where the ratio moved the wrong way "
                              "(ratio < 1 - eps with A > 0, or ratio > 1 + eps with A < 0) the unclipped term is the "
                              "smaller one and must keep its gradient; the min makes the objective a pessimistic bound.",
                              " 它与不取 min 的 -mean(clamp(ratio) * A) 一致：ratio 往不利方向偏离时（A > 0 且 ratio < 1 - eps，"
                              "或 A < 0 且 ratio > 1 + eps），未截断项更小，必须保留它的梯度；min 让目标成为一个悲观下界。")),
        (-torch.maximum(ratio * adv, clipped).mean(),
         say(" It matches max instead of min: PPO takes the smaller (pessimistic) of the two surrogates; with the "
             "minus sign of a loss that is torch.max(-ratio * A, -clamp(ratio) * A).",
             " 它与用 max 代替 min 一致：PPO 取两个 surrogate 中较小的（悲观的）那个；写成带负号的 loss 时是 "
             "torch.max(-ratio * A, -clamp(ratio) * A)。")),
    ]
    surrogate = _minimum(ratio * adv, clipped)
    candidates.append((surrogate.mean(), say(
        " It matches +mean(min(...)), the objective itself: the loss to minimise is its negative.",
        " 它与 +mean(min(...)) 一致，即目标本身：要最小化的 loss 是它的相反数。")))
    for unbiased in (True, False):
        if adv.numel() < 2:
            break
        norm = (adv - adv.mean()) / (adv.std(unbiased=unbiased) + 1e-8)
        normalised = -_minimum(ratio * norm, _clamp(ratio, 1 - eps, 1 + eps) * norm).mean()
        candidates.append((normalised, say(
            " It matches the loss with the advantages normalised to zero mean and unit std inside clipped_loss; "
            "use them as given (normalising is the caller's choice).",
            " 它与在 clipped_loss 里把 advantages 归一化为零均值、单位标准差之后的 loss 一致；请按传入的值使用"
            "（是否归一化由调用方决定）。")))
    for value, text in candidates:
        if abs(float(value) - got_value) < 1e-7:
            return text
    quotient = logp_new.detach() / logp_old
    as_quotient = -_minimum(quotient * adv, _clamp(quotient, 1 - eps, 1 + eps) * adv).mean()
    if abs(float(as_quotient) - got_value) < 1e-9:
        return say(" It matches ratio = logp_new / logp_old: the ratio is of probabilities, pi_new / pi_old = "
                   "exp(logp_new - logp_old), not a quotient of log-probabilities.",
                   " 它与 ratio = logp_new / logp_old 一致：ratio 是概率之比 pi_new / pi_old = exp(logp_new - logp_old)，"
                   "而不是 log 概率之商。")
    return ""


def _clip_case():
    eps = 0.2
    ratios = [1.5, 0.5, 1.1, 0.7, 1.5, 1.0]
    adv = _f64([1.0, 1.0, -1.0, -1.0, -1.0, 2.0])
    logp_old = _f64([-1.0, -0.5, -2.0, -0.3, -1.2, -0.8])
    logp_new = (logp_old + torch.log(_f64(ratios))).requires_grad_(True)
    return logp_new, logp_old, adv, eps


def test_clip_hand_computed(entry):
    logp_new, logp_old, adv, eps = _clip_case()
    loss = _loss(entry, logp_new, logp_old, adv, eps)
    (grad,) = torch.autograd.grad(loss, logp_new)
    # per element: min(r * A, clamp(r) * A) = [1.2, 0.5, -1.1, -0.8, -1.5, 2.0]; mean 0.05; loss -0.05
    want = -(1.2 + 0.5 - 1.1 - 0.8 - 1.5 + 2.0) / 6
    want_grad = _f64([0.0, -0.5, 1.1, 0.0, 1.5, -2.0]) / 6
    got = float(loss.detach())
    detail = say(
        "ratios [1.5, 0.5, 1.1, 0.7, 1.5, 1.0], advantages [1, 1, -1, -1, -1, 2], eps 0.2: "
        "min(r*A, clamp(r, 0.8, 1.2)*A) = [1.2 (clipped), 0.5 (unclipped: the ratio fell, so the min keeps it), "
        "-1.1, -0.8 (clipped), -1.5 (unclipped: the ratio rose on a bad action), 2.0]; loss = -mean = "
        f"{want:.6f}; d loss / d logp_new = -A * r / 6 where unclipped, 0 where clipped = "
        f"{[round(v, 4) for v in want_grad.tolist()]}. Got loss {got:.6f}, gradient {[round(v, 4) for v in grad.tolist()]}.",
        "ratio [1.5, 0.5, 1.1, 0.7, 1.5, 1.0]，advantage [1, 1, -1, -1, -1, 2]，eps 0.2："
        "min(r*A, clamp(r, 0.8, 1.2)*A) = [1.2（截断），0.5（未截断：ratio 下降了，min 保留它），"
        "-1.1，-0.8（截断），-1.5（未截断：坏动作的 ratio 上升了），2.0]；loss = -mean = "
        f"{want:.6f}；d loss / d logp_new 在未截断处为 -A * r / 6，截断处为 0，即 "
        f"{[round(v, 4) for v in want_grad.tolist()]}。实际 loss 为 {got:.6f}，梯度为 {[round(v, 4) for v in grad.tolist()]}。",
    )
    ok = abs(got - want) < 1e-12 and torch.allclose(grad, want_grad, atol=1e-12)
    assert ok, detail + _loss_mistake(got, grad, logp_new, logp_old, adv, eps)


def test_clip_matches_reference(entry):
    gen = torch.Generator().manual_seed(21)
    shape = (4, 16)
    logp_old = -torch.rand(shape, generator=gen, dtype=torch.float64) * 3
    logp_new = (logp_old + torch.randn(shape, generator=gen, dtype=torch.float64) * 0.3).requires_grad_(True)
    adv = torch.randn(shape, generator=gen, dtype=torch.float64)
    loss = _loss(entry, logp_new, logp_old, adv, 0.1)
    (grad,) = torch.autograd.grad(loss, logp_new)
    x = logp_new.detach().requires_grad_(True)
    want = reference_loss(x, logp_old, adv, 0.1)
    (want_grad,) = torch.autograd.grad(want, x)
    got, want = float(loss.detach()), float(want.detach())
    err = max(abs(got - want), float((grad - want_grad).abs().max()))
    message = say(
        f"a (4, 16) batch, eps 0.1 (the mean is over every element): loss or gradient differs from the reference by up "
        f"to {err:.4g} (loss {got:.6f}, expected {want:.6f}).",
        f"(4, 16) 的 batch，eps 0.1（对所有元素取平均）：loss 或梯度与参考最多相差 {err:.4g}"
        f"（loss 为 {got:.6f}，应为 {want:.6f}）。",
    )
    assert err < 1e-10, message + _loss_mistake(got, grad, logp_new, logp_old, adv, 0.1)


def test_first_epoch_is_policy_gradient(entry):
    # before the first update the ratio is 1 everywhere: the loss is -mean(A) and its gradient -A / n
    adv = _f64([0.5, -2.0, 1.5, 3.0])
    logp_old = _f64([-0.1, -1.0, -2.5, -0.7])
    logp_new = logp_old.clone().requires_grad_(True)
    loss = _loss(entry, logp_new, logp_old, adv, 0.2)
    (grad,) = torch.autograd.grad(loss, logp_new)
    got = float(loss.detach())
    ok = abs(got + float(adv.mean())) < 1e-12 and torch.allclose(grad, -adv / 4, atol=1e-12)
    note = ""
    if abs(got - float(adv.mean())) < 1e-12:
        note = say(" That is +mean(A), the objective itself: the loss to minimise is its negative.",
                   " 这是 +mean(A)，即目标本身：要最小化的 loss 是它的相反数。")
    assert ok, say(
        f"with logp_new == logp_old the ratio is 1, nothing is clipped, and PPO reduces to the policy gradient: loss = "
        f"-mean(A) = {-float(adv.mean()):.4f}, gradient -A / 4 = {(-adv / 4).tolist()}; got loss {got:.4f}, "
        f"gradient {[round(v, 4) for v in grad.tolist()]}.{note}",
        f"logp_new == logp_old 时 ratio 为 1，没有截断，PPO 退化为策略梯度：loss = -mean(A) = {-float(adv.mean()):.4f}，"
        f"梯度 -A / 4 = {(-adv / 4).tolist()}；实际 loss 为 {got:.4f}，梯度为 {[round(v, 4) for v in grad.tolist()]}。{note}",
    )
