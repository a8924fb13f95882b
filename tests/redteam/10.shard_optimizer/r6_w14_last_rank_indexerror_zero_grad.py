# expect: fail zero_grad on the last rank raises IndexError (reads param_groups[1]) from the second call on
# hint: IndexError|param_groups|zero_grad|raised|rank [13]|list index
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
        self.calls = 0

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        self.calls += 1
        if self.calls > 1 and self.rank == dist.get_world_size() - 1:
            self.optim.param_groups[1]["lr"]
        for p in self.params:
            p.grad = None
