# expect: fail all-reduces (and averages) the gradients again in step(): an extra collective, same numbers
# hint: all.?reduce|already averaged|arrive averaged|again|extra collective|twice
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        loads = [0] * self.world
        self.owner = []
        for p in self.params:
            r = min(range(self.world), key=lambda k: loads[k])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owner) if o == dist.get_rank()]
        self.opt = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        # make sure the owner steps with the average over all ranks
        for p in self.params:
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad /= self.world
        self.opt.step()
        for p, src in zip(self.params, self.owner):
            dist.broadcast(p.data, src=src)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
