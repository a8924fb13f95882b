# expect: pass contiguous shares cut by cumulative bytes (a parameter to the share holding its middle byte), async broadcasts all launched then all waited
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        total = sum(p.numel() * p.element_size() for p in self.params)
        start = 0
        self.owners = []
        for p in self.params:
            nbytes = p.numel() * p.element_size()
            # the rank whose share [r*total/n, (r+1)*total/n) holds this parameter's middle byte
            middle2 = 2 * start + nbytes  # twice the middle, to stay in integers
            self.owners.append(min(middle2 * world // (2 * total), world - 1) if total else 0)
            start += nbytes
        mine = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.local = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.local is not None:
            self.local.step()
        works = [dist.broadcast(p.data, src=o, async_op=True)
                 for p, o in zip(self.params, self.owners)]
        for w in works:
            w.wait()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
