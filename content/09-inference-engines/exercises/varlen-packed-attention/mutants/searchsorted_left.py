import torch
import torch.nn.functional as F


class Varlen:
    @staticmethod
    def pack(seqs):
        """Concatenate (L_i, H, D) tensors into one (sum L_i, H, D) pack; return (packed, cu_seqlens, max_seqlen)."""
        lengths = [s.shape[0] for s in seqs]
        cu_seqlens = torch.zeros(len(seqs) + 1, dtype=torch.int32)
        cu_seqlens[1:] = torch.tensor(lengths).cumsum(0)
        return torch.cat(seqs), cu_seqlens, max(lengths)

    @staticmethod
    def attention(q, k, v, cu_seqlens, causal=False):
        """Attention over a pack: each token sees only the tokens of its own sequence (block-diagonal mask)."""
        total = q.shape[0]
        pos = torch.arange(total)
        seq = torch.searchsorted(cu_seqlens.to(torch.int64), pos) - 1  # sequence of each token
        mask = seq[:, None] == seq[None, :]
        if causal:
            mask &= pos[None, :] <= pos[:, None]  # no key after the query
        out = F.scaled_dot_product_attention(q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1), attn_mask=mask)
        return out.transpose(0, 1)
