import torch


def softmax_fp16(x, dim=-1):
    e = torch.exp(x)
    s = e.sum(dim=dim, keepdim=True)
    return torch.where(s > 0, e / s, torch.zeros_like(e))
