import copy

import torch


class RunCheckpoint:
    @staticmethod
    def save(run):
        """Everything the rest of the run depends on, as a snapshot that later training cannot change."""
        return copy.deepcopy({
            "model": run.model.state_dict(),
            "optimizer": run.optimizer.state_dict(),
            "scheduler": run.scheduler.state_dict(),
            "rng": torch.get_rng_state(),
            "epoch": run.epoch,
            "consumed": run.consumed,
        })

    @staticmethod
    def load(run, state):
        """Put `run` where the saved run was; the checkpoint stays usable for another load."""
        state = copy.deepcopy(state)
        run.model.load_state_dict(state["model"])
        run.optimizer.load_state_dict(state["optimizer"])
        run.scheduler.load_state_dict(state["scheduler"])
        torch.set_rng_state(state["rng"])
        run.epoch, run.consumed = state["epoch"], state["consumed"]
        run.loader.sampler.set_epoch(run.epoch)
        run.batches = iter(run.loader)  # draws a base seed from the default generator
        for _ in range(run.consumed):
            next(run.batches)
