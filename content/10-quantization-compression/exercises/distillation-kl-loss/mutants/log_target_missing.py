import torch.nn.functional as F


def distillation_loss(student_logits, teacher_logits, labels, T=2.0, alpha=0.5):
    log_q = F.log_softmax(student_logits / T, dim=-1)
    log_p = F.log_softmax(teacher_logits.detach() / T, dim=-1)
    soft = F.kl_div(log_q, log_p, reduction="batchmean") * (T * T)  # log-probabilities as target, log_target left False
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard
