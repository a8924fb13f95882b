# expect: fail after each step the owners broadcast their Adam moments too, so every rank keeps every parameter's state
# hint: state|moment|exp_avg|gather|memory|1/n|every rank keeps|copy of the state|replicat
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        owned = [0] * world
        self.owners = []
        for p in self.params:
            r = owned.index(min(owned))
            self.owners.append(r)
            owned[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, r in zip(self.params, self.owners) if r == rank], **kwargs)
        self.full_state = {}  # every parameter's moments, so any rank can save a checkpoint

    @torch.no_grad()
    def step(self):
        self.optim.step()
        rank = dist.get_rank()
        for i, (p, r) in enumerate(zip(self.params, self.owners)):
            dist.broadcast(p.data, src=r)
            for key in ("exp_avg", "exp_avg_sq"):
                if r == rank and key in self.optim.state[p]:
                    t = self.optim.state[p][key].clone()
                else:
                    t = torch.empty_like(p)
                dist.broadcast(t, src=r)
                self.full_state[i, key] = t

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
