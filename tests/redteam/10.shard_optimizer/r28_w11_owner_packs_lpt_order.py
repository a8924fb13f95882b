# expect: fail the owner packs its flat buffer in the largest-first order it assigned owners in, while the receivers unpack it in the order of params: when a rank's share holds parameters of different sizes listed small-before-large (biases before weights), the receivers copy slices into the wrong parameters.
# hint: (order|pack|unpack|layout|same order|slice|offset|sorted|mismatch|wrong param)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.shares = [[] for _ in range(self.world)]  # filled largest parameter first (LPT)
        self.owner = {}
        for p in sorted(self.params, key=lambda p: p.numel() * p.element_size(), reverse=True):
            r = min(range(self.world), key=loads.__getitem__)
            self.shares[r].append(p)
            self.owner[p] = r
            loads[r] += p.numel() * p.element_size()
        mine = self.shares[self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for r in range(self.world):
            share = [p for p in self.params if self.owner[p] == r]  # receivers: in params order
            if not share:
                continue
            if r == self.rank:
                flat = torch.cat([p.reshape(-1) for p in self.shares[r]])  # owner: in its own list
            else:
                flat = torch.empty(sum(p.numel() for p in share), dtype=share[0].dtype)
            dist.broadcast(flat, src=r)
            if r != self.rank:
                for p, part in zip(share, flat.split([p.numel() for p in share])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
