import torch


class PPO:
    @staticmethod
    def gae(rewards, values, dones, last_value, gamma, lam):
        """(advantages, returns) by generalized advantage estimation; time is dim 0; dones[t] = 1 when the
        episode ended with step t's reward; last_value is V of the state after the last step."""
        raise NotImplementedError("PPO.gae")

    @staticmethod
    def clipped_loss(logp_new, logp_old, advantages, clip_eps):
        """-mean(min(ratio * A, clamp(ratio, 1 - eps, 1 + eps) * A)) with ratio = exp(logp_new - logp_old)."""
        raise NotImplementedError("PPO.clipped_loss")
