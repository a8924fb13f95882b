# expect: fail after every step it serializes its optimizer's state_dict() into an in-memory BytesIO kept on the instance, for a quick restart: that is a second copy of the moments of the rank's own parameters (as bytes, not tensors), the memory ZeRO-1 is meant to save.
# hint: (second copy|twice|snapshot|checkpoint|serializ|torch\.save|bytesio|bytes|state_dict|kept again|duplicate)
import io

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.owners = []
        for p in self.params:
            r = min(range(self.world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None
        self.last_good = io.BytesIO()  # restart from here if the next step fails

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)
        if self.optim is not None:
            self.last_good.seek(0)
            self.last_good.truncate()
            torch.save(self.optim.state_dict(), self.last_good)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
