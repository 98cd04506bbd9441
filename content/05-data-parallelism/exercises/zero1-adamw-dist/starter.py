import math

import torch
import torch.distributed as dist


class Zero1AdamW:
    """AdamW with ZeRO stage 1: each rank keeps the optimizer state (m, v) of its own shard only.

    step(): average param.grad over ranks for your shard (reduce-scatter), update your shard with AdamW,
    then all-gather the updated shards into param.
    """

    def __init__(self, param, lr=1e-2, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        self.param = param

    def step(self):
        raise NotImplementedError
