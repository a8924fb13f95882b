# expect: pass rank 0 plans the owners (largest first, index as the tie-break) and sends the plan to the others with dist.broadcast_object_list in __init__, so every rank uses one plan; the parameters then go by dist.broadcast(p.detach(), r), src given positionally
# hint: 
import torch
import torch.distributed as dist


def _plan(sizes, world):
    loads = [0] * world
    owners = [0] * len(sizes)
    for i in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
        r = min(range(world), key=lambda k: (loads[k], k))
        owners[i] = r
        loads[r] += sizes[i]
    return owners


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        box = [None]
        if dist.get_rank() == 0:
            box[0] = _plan([p.nbytes for p in self.params], dist.get_world_size())
        dist.broadcast_object_list(box, src=0)
        self.owners = box[0]
        mine = [p for p, r in zip(self.params, self.owners) if r == dist.get_rank()]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.detach(), r)

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.zero_()  # zeros in place, as zero_grad(set_to_none=False)


answer = ShardedOptimizer
