import torch.nn.functional as F


def distillation_loss(student_logits, teacher_logits, labels, T=2.0, alpha=0.5):
    log_q = F.log_softmax(student_logits / T, dim=-1)
    p = F.softmax(teacher_logits.detach() / T, dim=-1)
    soft = -(p * log_q).sum(dim=-1).mean() * (T * T)  # cross-entropy with the soft targets, not the KL
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard
