# expect: fail keeps a torch.save snapshot of its optimizer's state_dict() after every step, a second copy of its own moments beside the optimizer
# hint: snapshot|state_dict|second (copy|time)|twice|duplicat|torch\.save|kept (a )?second|beside|copy of (the |its )?(moments|state)
# Wrong: "for a quick rollback", step() serialises the local optimizer's state into bytes kept
# on the instance; the moments of this rank's weights then live twice on the rank.
import io

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owners.append(r)
            load[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.optimizer = optimizer_cls(mine, **kwargs) if mine else None
        self._last_good = None  # bytes of the optimizer state after the last step

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
            buf = io.BytesIO()
            torch.save(self.optimizer.state_dict(), buf)
            self._last_good = buf.getvalue()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
