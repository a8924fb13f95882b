# expect: fail right parameters, but also broadcasts the owner's Adam moments to every rank each step (extra collectives, and every rank then holds all the state)
# hint: state|extra|collective|broadcast|bytes|1/n|more
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
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)
        # share the moments too, "for resilience"
        if not hasattr(self, "copies"):
            self.copies = {}
        for p, o in zip(self.params, self.owner):
            if o == self.rank:
                st = self.optim.state[p]
                bufs = [st["exp_avg"], st["exp_avg_sq"]]
            else:
                bufs = self.copies.setdefault(p, [torch.zeros_like(p), torch.zeros_like(p)])
            for b in bufs:
                dist.broadcast(b, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
