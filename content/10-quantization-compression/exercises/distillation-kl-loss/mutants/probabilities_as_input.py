import torch.nn.functional as F


def distillation_loss(student_logits, teacher_logits, labels, T=2.0, alpha=0.5):
    q = F.softmax(student_logits / T, dim=-1)  # probabilities where F.kl_div wants log-probabilities
    log_p = F.log_softmax(teacher_logits.detach() / T, dim=-1)
    soft = F.kl_div(q, log_p, reduction="batchmean", log_target=True) * (T * T)
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard
