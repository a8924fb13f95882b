# expect: fail owners given by index (i % world): the count balanced, not the bytes, wrong for parameters of other sizes (the prompt asks to balance the bytes)
# hint: bytes|balanc|i % world|index|count|size
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
        self.owner = [i % dist.get_world_size() for i in range(len(self.params))]
        self.mine = [p for p, o in zip(self.params, self.owner) if o == self.rank]
        self.optim = optimizer_cls(self.mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
