# Wrong: alpha // r floors the scaling; right whenever r divides alpha (8 / 4, 16 / 8), wrong for alpha=10, r=4.
import math

import torch
from torch import nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: float):
        super().__init__()
        self.base = base
        for p in base.parameters():
            p.requires_grad_(False)
        w = base.weight
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, dtype=w.dtype, device=w.device))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, dtype=w.dtype, device=w.device))
        bound = 1.0 / math.sqrt(base.in_features)
        with torch.no_grad():
            self.lora_A.uniform_(-bound, bound)
        self.scaling = alpha // r

    def forward(self, x):
        return self.base(x) + F.linear(F.linear(x, self.lora_A), self.lora_B) * self.scaling

    def merged_weight(self):
        return self.base.weight + self.scaling * (self.lora_B @ self.lora_A)
