# expect: fail launches async broadcasts in step() and waits for them only in the next zero_grad(): step returns before the parameters arrive
# hint: wait|async|sync|before (step|it) returns|handle|complete|finish
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda k: loads[k])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owner) if o == dist.get_rank()]
        self.opt = optimizer_cls(mine, **kwargs)
        self.pending = []

    @torch.no_grad()
    def step(self):
        self.opt.step()
        # overlap the broadcasts with whatever comes next; zero_grad() waits for them
        self.pending = [
            dist.broadcast(p.data, src=src, async_op=True)
            for p, src in zip(self.params, self.owner)
        ]

    def zero_grad(self):
        for h in self.pending:
            h.wait()
        self.pending = []
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
