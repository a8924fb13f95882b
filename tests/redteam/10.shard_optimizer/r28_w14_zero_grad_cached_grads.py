# expect: fail zero_grad() zeroes, in place, the list of gradient tensors it found at its first call: called before the first backward that list is empty and gradients then accumulate from step to step; and any gradient replaced later (p.grad = ...) is never cleared.
# hint: (cache|cached|first call|stale|accumulat|never clear|not clear|zero_grad|in place|every call)
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
        self._grads = None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        if self._grads is None:  # found once; zeroing in place keeps the same tensors
            self._grads = [p.grad for p in self.params if p.grad is not None]
        if self._grads:
            torch._foreach_zero_(self._grads)


answer = ShardedOptimizer
