import copy

import torch


class RunCheckpoint:
    @staticmethod
    def save(run):
        return {
            "model": {k: v.clone() for k, v in run.model.state_dict().items()},  # weights copied ...
            "optimizer": run.optimizer.state_dict(),  # ... but the optimizer's state tensors are its live ones
            "scheduler": copy.deepcopy(run.scheduler.state_dict()),
            "rng": torch.get_rng_state(),
            "epoch": run.epoch,
            "consumed": run.consumed,
        }

    @staticmethod
    def load(run, state):
        state = copy.deepcopy(state)
        run.model.load_state_dict(state["model"])
        run.optimizer.load_state_dict(state["optimizer"])
        run.scheduler.load_state_dict(state["scheduler"])
        run.epoch, run.consumed = state["epoch"], state["consumed"]
        run.loader.sampler.set_epoch(run.epoch)
        run.batches = iter(run.loader)
        for _ in range(run.consumed):
            next(run.batches)
        torch.set_rng_state(state["rng"])
