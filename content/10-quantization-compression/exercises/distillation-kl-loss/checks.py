"""The reference distillation loss (F.kl_div with log targets), a hand-computed case, the closed-form
gradient, and recomputed versions of the usual mistakes so a wrong output can be named."""

import math

import torch
import torch.nn.functional as F

from quiz.grader.say import say

_kl_div = F.kl_div  # taken when the checks load, before any learner code runs
_log_softmax = F.log_softmax
_cross_entropy = F.cross_entropy
_softmax = torch.softmax


def _soft(student, teacher, T, reduction="batchmean", reverse=False):
    log_q = _log_softmax(student / T, dim=-1)
    log_p = _log_softmax(teacher.detach() / T, dim=-1)
    if reverse:
        log_q, log_p = log_p, log_q
    return _kl_div(log_q, log_p, reduction=reduction, log_target=True)


def _cross_entropy_soft(student, teacher, T):
    log_q = _log_softmax(student / T, dim=-1)
    p = _softmax(teacher.detach() / T, -1)
    return -(p * log_q).sum(dim=-1).mean()


def _probabilities_as_input(student, teacher, T):
    q = _softmax(student / T, -1)
    log_p = _log_softmax(teacher.detach() / T, dim=-1)
    return (log_p.exp() * (log_p - q)).sum(dim=-1).mean()


def reference(student_logits, teacher_logits, labels, T=2.0, alpha=0.5):
    soft = _soft(student_logits, teacher_logits, T) * (T * T)
    return alpha * soft + (1 - alpha) * _cross_entropy(student_logits, labels)


def _mistakes(student, teacher, labels, T, alpha):
    hard = _cross_entropy(student, labels)
    return [
        (alpha * _soft(student, teacher, T) + (1 - alpha) * hard,
         say("it matches the loss without the T^2 factor: soft-target gradients shrink roughly as 1/T^2, so Hinton et al. "
             "multiply the KL term by T^2 to keep it on the scale of the hard loss",
             "它与少乘了 T^2 的损失一致：软目标的梯度大约按 1/T^2 缩小，所以 Hinton 等人把 KL 项乘以 T^2，"
             "让它与硬标签损失保持同一量级")),
        (alpha * _soft(student, teacher, T, reduction="mean") * T * T + (1 - alpha) * hard,
         say("it matches reduction='mean', which divides by batch x classes; the KL divergence is summed over "
             "classes and averaged over rows only (reduction='batchmean')",
             "它与 reduction='mean' 一致，后者除以 batch x 类别数；KL 散度应在类别上求和、只在行上取平均"
             "（reduction='batchmean'）")),
        (alpha * _soft(student, teacher, T, reverse=True) * T * T + (1 - alpha) * hard,
         say("it matches KL(student || teacher): F.kl_div(input, target) computes KL(target || input), so the "
             "student's log-probabilities go first and the teacher is the target",
             "它与 KL(student || teacher) 一致：F.kl_div(input, target) 计算的是 KL(target || input)，"
             "所以第一个参数是 student 的 log 概率，teacher 是 target")),
        (alpha * _soft(student, teacher, T, reduction="sum") * T * T + (1 - alpha) * hard,
         say("it matches reduction='sum', which adds the rows up; the KL term is averaged over the batch "
             "(reduction='batchmean'), like the cross-entropy beside it",
             "它与 reduction='sum' 一致，把各行加在了一起；KL 项要在 batch 上取平均（reduction='batchmean'），"
             "和旁边的交叉熵一样")),
        (alpha * _cross_entropy_soft(student, teacher, T) * T * T + (1 - alpha) * hard,
         say("it matches the cross-entropy with the soft targets, -sum p log q, which is the KL plus the teacher's "
             "entropy: the gradient is the same, the value is not; the soft term asked for is the KL",
             "它与软目标的交叉熵 -sum p log q 一致，后者等于 KL 加上 teacher 的熵：梯度相同，数值不同；"
             "题目要的软目标项是 KL")),
        (alpha * _probabilities_as_input(student, teacher, T) * T * T + (1 - alpha) * hard,
         say("it matches F.kl_div given probabilities as its first argument: F.kl_div expects log-probabilities "
             "there (log_softmax, not softmax)",
             "它与给 F.kl_div 第一个参数传概率的结果一致：F.kl_div 的第一个参数应是 log 概率"
             "（log_softmax，不是 softmax）")),
        (alpha * _soft(student, teacher, T) * T * T + (1 - alpha) * _cross_entropy(student / T, labels),
         say("it matches a hard-label cross-entropy taken on student_logits / T; the hard loss uses the "
             "student's ordinary logits (T = 1), since that is how the student will be run",
             "它与在 student_logits / T 上计算的硬标签交叉熵一致；硬标签损失用 student 的原始 logits（T = 1），"
             "因为部署时 student 就是这样运行的")),
    ]


def hint_output(check, args, got):
    """Name the usual mistake when the output matches it."""
    student, teacher, labels, T, alpha = args[0].detach(), args[1].detach(), args[2], args[3], args[4]
    got = got.detach().to(torch.float64)
    if not bool(torch.isfinite(got).all()):
        if float(torch.cat([student.flatten(), teacher.flatten()]).abs().max()) < 50:
            return say("The result is not finite although these logits are small enough for softmax not to underflow: "
                       "F.kl_div takes its target as probabilities unless log_target=True, so log-probabilities "
                       "passed as the target without log_target=True are logged again (the log of a negative number).",
                       "这些 logits 不大，softmax 不会下溢，结果却不是有限值：F.kl_div 的 target 默认是概率，"
                       "只有 log_target=True 时才当作 log 概率；把 log 概率当 target 又不设 log_target=True，"
                       "就会对负数再取一次 log。")
        return say("The result is not finite: softmax underflows to 0 for logits this far apart, and p * log(p / q) "
                   "becomes 0 * inf. Work in log space: log_softmax for both, F.kl_div(..., log_target=True).",
                   "结果不是有限值：logits 相差这么大时 softmax 下溢为 0，p * log(p / q) 变成 0 * inf。"
                   "请在 log 空间里算：两边都用 log_softmax，再用 F.kl_div(..., log_target=True)。")
    for value, text in _mistakes(student, teacher, labels, T, alpha):
        if got.shape == value.shape and torch.allclose(got, value, atol=1e-9, rtol=1e-7):
            return say(f"Your output: {text}.", f"你的输出：{text}。")
    return ""


def _call(entry, *args, **kwargs):
    out = entry(*args, **kwargs)
    assert isinstance(out, torch.Tensor), say(
        f"distillation_loss should return a tensor, got {type(out).__name__}",
        f"distillation_loss 应返回 tensor，实际返回了 {type(out).__name__}")
    assert out.dim() == 0, say(f"distillation_loss should return a 0-dim tensor (one number), got shape {tuple(out.shape)}",
                               f"distillation_loss 应返回 0 维 tensor（一个数），实际形状是 {tuple(out.shape)}")
    assert out.dtype == torch.float64, say(f"float64 logits should give a float64 loss, got {out.dtype}",
                                           f"float64 的 logits 应得到 float64 的损失，实际是 {out.dtype}")
    return out


def test_hand_computed(entry):
    # teacher / T = [ln 3, 0] gives p = (3/4, 1/4); equal student logits give q = (1/2, 1/2)
    T = 2.0
    teacher = torch.tensor([[2 * math.log(3.0), 0.0]] * 2, dtype=torch.float64)
    student = torch.zeros(2, 2, dtype=torch.float64)
    labels = torch.tensor([0, 0])
    kl = 0.75 * math.log(0.75 / 0.5) + 0.25 * math.log(0.25 / 0.5)
    want = T * T * kl
    got = float(_call(entry, student, teacher, labels, T=T, alpha=1.0))
    note = ""
    if abs(got - kl) < 1e-9:
        note = say(" (that is the KL without T^2)", "（这是没乘 T^2 的 KL）")
    elif abs(got - want / 2) < 1e-9:
        note = say(" (that also divides by the 2 classes: reduction='mean')", "（这还除以了 2 个类别：reduction='mean'）")
    elif abs(got - T * T * (0.5 * math.log(0.5 / 0.75) + 0.5 * math.log(0.5 / 0.25))) < 1e-9:
        note = say(" (that is KL(q || p), the divergence the wrong way round)", "（这是 KL(q || p)，方向反了）")
    elif abs(got - T * T * math.log(2.0)) < 1e-9:
        note = say(" (that is T^2 times the cross-entropy -sum p log q = ln 2, which adds the teacher's entropy to the KL)",
                   "（这是 T^2 乘以交叉熵 -sum p log q = ln 2，它比 KL 多了 teacher 的熵）")
    assert abs(got - want) < 1e-12, say(
        f"two rows with teacher logits [2 ln 3, 0] and student logits [0, 0], T = 2, alpha = 1: p = (3/4, 1/4), "
        f"q = (1/2, 1/2), KL = 3/4 ln(3/2) + 1/4 ln(1/2) = {kl:.6f} per row, the batch mean is the same, and times "
        f"T^2 = 4 gives {want:.6f}; got {got:.6f}{note}",
        f"两行数据，teacher logits 为 [2 ln 3, 0]，student logits 为 [0, 0]，T = 2，alpha = 1：p = (3/4, 1/4)，"
        f"q = (1/2, 1/2)，每行 KL = 3/4 ln(3/2) + 1/4 ln(1/2) = {kl:.6f}，batch 平均不变，乘以 T^2 = 4 得 {want:.6f}；"
        f"实际是 {got:.6f}{note}",
    )
    ce = float(_call(entry, student, teacher, labels, T=T, alpha=0.0))
    assert abs(ce - math.log(2.0)) < 1e-12, say(
        f"with alpha = 0 only the hard loss is left: cross-entropy of logits [0, 0] against label 0 is ln 2 = "
        f"{math.log(2.0):.6f}; got {ce:.6f}",
        f"alpha = 0 时只剩硬标签损失：logits [0, 0] 对标签 0 的交叉熵是 ln 2 = {math.log(2.0):.6f}；实际是 {ce:.6f}",
    )


def test_gradient_closed_form(entry):
    # d loss / d student = alpha * T * (q_T - p_T) / B + (1 - alpha) * (softmax(s) - onehot) / B
    gen = torch.Generator().manual_seed(11)
    B, C, T, alpha = 5, 7, 3.0, 0.6
    student = (torch.randn(B, C, generator=gen, dtype=torch.float64) * 2).requires_grad_(True)
    teacher = torch.randn(B, C, generator=gen, dtype=torch.float64) * 2
    labels = torch.randint(0, C, (B,), generator=gen)
    loss = _call(entry, student, teacher, labels, T=T, alpha=alpha)
    (grad,) = torch.autograd.grad(loss, student)
    s = student.detach()
    onehot = F.one_hot(labels, C).to(torch.float64)
    want = (alpha * T * (_softmax(s / T, -1) - _softmax(teacher / T, -1)) + (1 - alpha) * (_softmax(s, -1) - onehot)) / B
    err = float((grad - want).abs().max())
    no_t2 = (alpha / T * (_softmax(s / T, -1) - _softmax(teacher / T, -1)) + (1 - alpha) * (_softmax(s, -1) - onehot)) / B
    note = ""
    if torch.allclose(grad, no_t2, atol=1e-10):
        note = say(" This is the gradient without T^2: the soft part scales as 1/T instead of T.",
                   " 这是没乘 T^2 的梯度：软目标部分按 1/T 缩放，而不是 T。")
    assert err < 1e-10, say(
        f"the gradient with respect to the student logits should be "
        f"(alpha * T * (softmax(s/T) - softmax(t/T)) + (1 - alpha) * (softmax(s) - onehot)) / B; max error {err:.3g}.{note}",
        f"对 student logits 的梯度应为 "
        f"(alpha * T * (softmax(s/T) - softmax(t/T)) + (1 - alpha) * (softmax(s) - onehot)) / B；最大误差 {err:.3g}。{note}",
    )


def test_teacher_gets_no_gradient(entry):
    gen = torch.Generator().manual_seed(5)
    student = torch.randn(4, 6, generator=gen, dtype=torch.float64).requires_grad_(True)
    teacher = torch.randn(4, 6, generator=gen, dtype=torch.float64).requires_grad_(True)
    labels = torch.randint(0, 6, (4,), generator=gen)
    loss = _call(entry, student, teacher, labels, T=2.0, alpha=0.5)
    (g_teacher,) = torch.autograd.grad(loss, teacher, allow_unused=True)
    leak = 0.0 if g_teacher is None else float(g_teacher.abs().max())
    assert leak == 0.0, say(
        f"a gradient reaches the teacher logits (largest {leak:.3g}): the teacher is a fixed target, so detach it "
        "(or run it under torch.no_grad()); otherwise backward also trains, or at least stores a graph for, the teacher",
        f"梯度流到了 teacher logits（最大 {leak:.3g}）：teacher 是固定的目标，要 detach（或在 torch.no_grad() 下运行它）；"
        "否则 backward 也会训练 teacher，至少也要为它保存计算图",
    )
