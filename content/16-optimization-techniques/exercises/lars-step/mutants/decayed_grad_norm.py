import torch


def lars_step(params, grads, bufs, lr, momentum=0.9, weight_decay=5e-4, eta=0.001, eps=1e-8):
    ratios = []
    with torch.no_grad():
        for w, g, v in zip(params, grads, bufs):
            d = g + weight_decay * w
            w_norm, g_norm = w.norm().item(), g.norm().item()
            # the norm of the decayed gradient, as some implementations do
            ratio = eta * w_norm / (d.norm().item() + eps) if w_norm > 0 and g_norm > 0 else 1.0
            v.mul_(momentum).add_(d, alpha=lr * ratio)
            w.sub_(v)
            ratios.append(ratio)
    return ratios
