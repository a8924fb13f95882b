# expect: fail the broadcast is deferred to the next zero_grad(), so after step() the ranks hold different parameters
# hint: broadcast|not updated|stale|zero_grad|after (each )?step
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            owner = loads.index(min(loads))
            self.owners.append(owner)
            loads[owner] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)
        self._pending = False

    @torch.no_grad()
    def step(self):
        self.optim.step()
        self._pending = True  # sent at the start of the next iteration, before forward

    @torch.no_grad()
    def _sync(self):
        if self._pending:
            for p, owner in zip(self.params, self.owners):
                dist.broadcast(p.data, src=owner)
            self._pending = False

    def zero_grad(self):
        self._sync()
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
