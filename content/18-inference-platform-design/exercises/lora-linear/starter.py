import math  # noqa: F401

import torch
from torch import nn


class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: y = base(x) + (alpha / r) * x A^T B^T."""

    def __init__(self, base: nn.Linear, r: int, alpha: float):
        super().__init__()
        self.base = base
        # TODO: freeze base; lora_A (r, in) with kaiming_uniform_(a=sqrt(5)); lora_B (out, r) zeros; scaling alpha / r

    def forward(self, x):
        raise NotImplementedError("forward")

    def merged_weight(self):
        # TODO: W + scaling * B @ A, without changing base.weight
        raise NotImplementedError("merged_weight")


_ = torch
