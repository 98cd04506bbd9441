import torch


def softmax_fp16(x, dim=-1):
    x32 = x.float()
    m = x32.amax(dim=dim, keepdim=True)
    m = torch.where(torch.isneginf(m), torch.zeros_like(m), m)
    e = torch.exp(x32 - m).half()  # back to the input dtype as soon as the exp is done
    s = e.sum(dim=dim, keepdim=True)
    return torch.where(s > 0, e / s, torch.zeros_like(e))
