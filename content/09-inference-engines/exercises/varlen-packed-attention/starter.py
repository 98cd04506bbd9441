import torch
import torch.nn.functional as F


class Varlen:
    @staticmethod
    def pack(seqs):
        """Concatenate (L_i, H, D) tensors into one (sum L_i, H, D) pack; return (packed, cu_seqlens, max_seqlen).

        cu_seqlens: int32, shape (len(seqs) + 1,), starting at 0 (the start offset of each sequence, then the total).
        """
        raise NotImplementedError("Varlen.pack")

    @staticmethod
    def attention(q, k, v, cu_seqlens, causal=False):
        """Attention over a pack of shape (total, H, D): each token sees only the tokens of its own sequence
        (and, with causal=True, none after itself). Returns (total, H, D)."""
        # TODO: the sequence of each token from cu_seqlens, a (total, total) boolean mask,
        #       then F.scaled_dot_product_attention on (H, total, D) views
        raise NotImplementedError("Varlen.attention")
