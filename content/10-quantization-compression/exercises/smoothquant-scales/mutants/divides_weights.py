import torch


@torch.no_grad()
def smooth_ln_fcs(ln, fcs, act_scales, alpha=0.5):
    """Moves activation outliers into the weights: ln output / s, fc weight columns * s. Returns s."""
    weight_scales = torch.stack([fc.weight.abs().amax(dim=0) for fc in fcs]).amax(dim=0).clamp(min=1e-5)
    s = (act_scales.pow(alpha) / weight_scales.pow(1 - alpha)).clamp(min=1e-5)
    ln.weight.mul_(s)
    ln.bias.mul_(s)
    for fc in fcs:
        fc.weight.div_(s.view(1, -1))  # column j of an nn.Linear weight meets input channel j
    return s
