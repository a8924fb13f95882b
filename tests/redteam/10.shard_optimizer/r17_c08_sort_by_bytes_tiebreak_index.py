# expect: pass
# hint:
import torch
import torch.distributed as dist


def _nbytes(t):
    return t.numel() * t.element_size()


class ShardedOptimizer:
    """ZeRO-1: largest parameters placed first, ties by index; per-owner loop of broadcasts."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self._params = list(params)
        self._world = dist.get_world_size()
        ranked = sorted(enumerate(self._params), key=lambda ip: (-_nbytes(ip[1]), ip[0]))
        totals = [0] * self._world
        self._owner = [0] * len(self._params)
        for i, p in ranked:
            r = min(range(self._world), key=totals.__getitem__)
            self._owner[i] = r
            totals[r] += _nbytes(p)
        me = dist.get_rank()
        self._mine = [p for i, p in enumerate(self._params) if self._owner[i] == me]
        self._opt = optimizer_cls(self._mine, **kwargs) if self._mine else None

    @torch.no_grad()
    def step(self):
        if self._opt is not None:
            self._opt.step()
        # owner by owner, each owner's parameters in the model's order: the same on all ranks
        for r in range(self._world):
            for i, p in enumerate(self._params):
                if self._owner[i] == r:
                    dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self._params:
            if p.grad is not None:
                p.grad.zero_()


answer = ShardedOptimizer
