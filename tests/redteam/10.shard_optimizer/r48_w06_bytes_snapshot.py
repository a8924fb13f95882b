# expect: fail after every step keeps a serialized copy of its optimizer's state_dict (torch.save into an io.BytesIO, for a cheap rollback): the moments of its own weights are kept a second time, as bytes
# hint: snapshot|copy|second|twice|state_dict|checkpoint|kept|moments
import io

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None
        self._last_good = None  # the optimizer as it was after the last finite step

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
            if all(torch.isfinite(p).all() for g in self.optim.param_groups for p in g["params"]):
                buf = io.BytesIO()
                torch.save(self.optim.state_dict(), buf)
                self._last_good = buf.getvalue()
            elif self._last_good is not None:  # a step went non-finite: roll the moments back
                self.optim.load_state_dict(torch.load(io.BytesIO(self._last_good)))
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
