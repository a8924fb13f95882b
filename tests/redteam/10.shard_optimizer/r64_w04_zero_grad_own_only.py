# expect: fail zero_grad clears only this rank's own parameters (the local optimizer's), leaving the other ranks' parameters' gradients to accumulate
# hint: zero_grad|clear.{0,30}(every|all|other)|(every|all) (the )?param\w*'?s? grad|not (cleared|none)|grad\w* (left|remain|pile|accumulat)|accumulat|stale
# Wrong: self.optimizer.zero_grad() only knows this rank's parameters; the prompt asks zero_grad
# to clear every parameter's gradient; the others' gradients pile up over the steps.
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

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        if self.optimizer is not None:
            self.optimizer.zero_grad()


answer = ShardedOptimizer
