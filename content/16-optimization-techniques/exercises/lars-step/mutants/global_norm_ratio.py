import torch


def lars_step(params, grads, bufs, lr, momentum=0.9, weight_decay=5e-4, eta=0.001, eps=1e-8):
    with torch.no_grad():
        w_norm = torch.cat([w.reshape(-1) for w in params]).norm().item()
        g_norm = torch.cat([g.reshape(-1) for g in grads]).norm().item()
        ratio = eta * w_norm / (g_norm + weight_decay * w_norm + eps) if w_norm > 0 and g_norm > 0 else 1.0
        for w, g, v in zip(params, grads, bufs):
            v.mul_(momentum).add_(g + weight_decay * w, alpha=lr * ratio)
            w.sub_(v)
    return [ratio] * len(params)
