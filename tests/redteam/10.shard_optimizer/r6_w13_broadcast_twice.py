# expect: fail broadcasts each owner's flat buffer, then each parameter again one by one: every parameter sent twice
# hint: twice|extra|more|broadcast|collective|once
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
        self.shares = [[p for p, o in zip(self.params, self.owner) if o == r] for r in range(dist.get_world_size())]

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.cat([p.detach().reshape(-1) for p in share])
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))
        for p, o in zip(self.params, self.owner):  # make sure
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
