# expect: fail builds the local optimizer inside step(), a fresh one every step: Adam's moments and step count are lost between steps
# hint: state|fresh|rebuilt|each step|moments|step 2|second step|differ|kept
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
        self.cls, self.kwargs = optimizer_cls, kwargs

    @torch.no_grad()
    def step(self):
        optimizer = self.cls(self.mine, **self.kwargs)
        optimizer.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
