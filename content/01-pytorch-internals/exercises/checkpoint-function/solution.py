import torch


class Checkpoint(torch.autograd.Function):
    """Run fn without keeping activations; recompute them in backward."""

    @staticmethod
    def forward(ctx, fn, *inputs):
        ctx.fn = fn
        ctx.save_for_backward(*inputs)
        with torch.no_grad():
            return fn(*inputs)

    @staticmethod
    def backward(ctx, grad_output):
        xs = [x.detach().requires_grad_(x.requires_grad) for x in ctx.saved_tensors]
        with torch.enable_grad():
            out = ctx.fn(*xs)
        wanted = [x for x in xs if x.requires_grad]
        grads = iter(torch.autograd.grad(out, wanted, grad_output))
        return (None, *[next(grads) if x.requires_grad else None for x in xs])
