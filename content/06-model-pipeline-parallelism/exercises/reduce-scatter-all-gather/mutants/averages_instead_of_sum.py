import torch


class Collectives:
    @staticmethod
    def reduce_scatter(tensors, send):
        # direct exchange: rank r sends chunk j to rank j; then divides by P as if averaging gradients
        p = len(tensors)
        out = []
        inbox = [[] for _ in range(p)]
        for r, t in enumerate(tensors):
            for j, c in enumerate(t.detach().chunk(p)):
                inbox[j].append(c.clone() if j == r else send(r, j, c))
        for j in range(p):
            out.append(torch.stack(inbox[j]).sum(0) / p)
        return out

    @staticmethod
    def all_gather(shards, send):
        p = len(shards)
        outs = []
        for r in range(p):
            got = [shards[k].detach().clone() if k == r else send(k, r, shards[k]) for k in range(p)]
            outs.append(torch.cat(got))
        return outs
