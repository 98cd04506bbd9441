import torch
import torch.nn.functional as F


def distillation_loss(student_logits, teacher_logits, labels, T=2.0, alpha=0.5):
    p = torch.softmax(teacher_logits.detach() / T, dim=-1)
    q = torch.softmax(student_logits / T, dim=-1)
    soft = (p * torch.log(p / q)).sum(dim=-1).mean() * (T * T)
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard
