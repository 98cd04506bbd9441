import torch


def softmax_fp16(x, dim=-1):
    """Softmax of a float16 tensor along `dim`: max-subtracted, computed in float32, returned as float16."""
    x32 = x.float()
    m = x32.amax(dim=dim, keepdim=True)
    m = torch.where(torch.isneginf(m), torch.zeros_like(m), m)  # a fully masked row has max -inf
    e = torch.exp(x32 - m)
    s = e.sum(dim=dim, keepdim=True)
    p = torch.where(s > 0, e / s, torch.zeros_like(e))
    return p.to(torch.float16)
