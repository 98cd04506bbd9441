import torch


def lars_step(params, grads, bufs, lr, momentum=0.9, weight_decay=5e-4, eta=0.001, eps=1e-8):
    """One LARS step. For each layer l (params[l], grads[l], bufs[l], same shapes):

        ratio = eta * ||w|| / (||g|| + weight_decay * ||w|| + eps)   (1.0 if ||w|| == 0 or ||g|| == 0)
        v <- momentum * v + lr * ratio * (g + weight_decay * w)
        w <- w - v

    Update params and bufs in place, leave grads alone, return the list of ratios (floats).
    """
    # TODO: one trust ratio per layer, then the momentum update scaled by it
    raise NotImplementedError("lars_step")
