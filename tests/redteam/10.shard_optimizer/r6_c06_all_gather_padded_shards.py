# expect: pass
# hint:
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
        world = dist.get_world_size()
        self.shares = [[p for p, o in zip(self.params, self.owner) if o == r] for r in range(world)]
        self.sizes = [sum(p.numel() for p in s) for s in self.shares]

    @torch.no_grad()
    def step(self):
        self.optim.step()
        world = dist.get_world_size()
        width = max(self.sizes)
        mine = self.shares[self.rank]
        local = torch.zeros(width, dtype=self.params[0].dtype)
        if mine:
            local[: self.sizes[self.rank]] = torch.cat([p.detach().reshape(-1) for p in mine])
        out = [torch.empty_like(local) for _ in range(world)]
        dist.all_gather(out, local)
        for r, share in enumerate(self.shares):
            if r == self.rank or not share:
                continue
            for p, part in zip(share, out[r][: self.sizes[r]].split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None
