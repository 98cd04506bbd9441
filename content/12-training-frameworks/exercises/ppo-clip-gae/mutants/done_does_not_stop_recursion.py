import torch


class PPO:
    @staticmethod
    def gae(rewards, values, dones, last_value, gamma, lam):
        """Generalized advantage estimates and value targets, time along dim 0."""
        T = rewards.shape[0]
        advantages = torch.zeros_like(rewards)
        next_adv = torch.zeros_like(last_value)
        next_value = last_value
        for t in reversed(range(T)):
            alive = 1.0 - dones[t]
            delta = rewards[t] + gamma * next_value * alive - values[t]
            next_adv = delta + gamma * lam * next_adv  # the done flag only cuts the bootstrap
            advantages[t] = next_adv
            next_value = values[t]
        return advantages, advantages + values

    @staticmethod
    def clipped_loss(logp_new, logp_old, advantages, clip_eps):
        """Minus the mean clipped surrogate objective."""
        ratio = torch.exp(logp_new - logp_old.detach())
        adv = advantages.detach()
        unclipped = ratio * adv
        clipped = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv
        return -torch.min(unclipped, clipped).mean()
