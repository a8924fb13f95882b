# expect: pass
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1 by hand, exposing torch.optim.Optimizer's state and param_groups (the local ones)."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        owned_bytes = [0] * self.world
        self.owner = []
        for p in self.params:
            r = min(range(self.world), key=owned_bytes.__getitem__)
            self.owner.append(r)
            owned_bytes[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None
        # the same objects as the local optimizer's, for a scheduler or a logger: no copies
        self.state = self.optim.state if self.optim is not None else {}
        self.param_groups = self.optim.param_groups if self.optim is not None else []

    def state_dict(self):
        """This rank's shard of the optimizer state (made on demand, not kept)."""
        return self.optim.state_dict() if self.optim is not None else {}

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
