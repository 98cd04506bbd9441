import torch


def softmax_fp16(x, dim=-1):
    x32 = x.float()
    finite = torch.where(torch.isneginf(x32), torch.full_like(x32, float("inf")), x32)
    m = finite.amin(dim=dim, keepdim=True)  # shift so the smallest logit becomes 0
    m = torch.where(torch.isinf(m), torch.zeros_like(m), m)
    e = torch.exp(x32 - m)
    s = e.sum(dim=dim, keepdim=True)
    p = torch.where(s > 0, e / s, torch.zeros_like(e))
    return p.to(torch.float16)
