# expect: fail each rank broadcasts its own parameters first, then the others': the broadcasts are called in a different order on each rank
# hint: order|same order|every rank|mismatch|hang|timed? ?out|peer
import torch
import torch.distributed as dist

def owners_of(params):
    world = dist.get_world_size()
    load = [0] * world
    out = []
    for p in params:
        r = min(range(world), key=load.__getitem__)
        out.append(r)
        load[r] += p.numel() * p.element_size()
    return out


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        self.owner = owners_of(self.params)
        self.mine = [p for p, o in zip(self.params, self.owner) if o == self.rank]
        self.optim = optimizer_cls(self.mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        pairs = list(zip(self.params, self.owner))
        pairs.sort(key=lambda po: po[1] != self.rank)
        for p, o in pairs:
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
