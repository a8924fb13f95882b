# expect: fail chunks of len // world with the remainder all on the last rank: on 3 ranks it owns 4 of 8
# hint: balanc|1/n|remainder|uneven|state.*(rank|bytes)|bytes|3 ranks|2 or 3|divid|more than
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        per_rank = len(self.params) // world
        # the last rank takes whatever is left over
        self.owner = [min(i // per_rank, world - 1) for i in range(len(self.params))]
        mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.opt = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.opt.step()
        for p, src in zip(self.params, self.owner):
            dist.broadcast(p.data, src=src)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
