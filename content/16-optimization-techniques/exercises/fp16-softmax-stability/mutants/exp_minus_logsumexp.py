import torch


def softmax_fp16(x, dim=-1):
    x32 = x.float()
    lse = torch.logsumexp(x32, dim=dim, keepdim=True)  # m + log(sum(exp(x - m))), with m added back
    p = torch.exp(x32 - lse)
    return torch.nan_to_num(p, nan=0.0).to(torch.float16)
