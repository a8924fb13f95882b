# expect: fail ignores optimizer_cls and builds torch.optim.Adam itself
# hint: optimizer_cls|class|Adam
import torch
import torch.distributed as dist


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        load = [0] * self.world
        self.owner = []
        for p in self.params:
            r = min(range(self.world), key=lambda k: load[k])
            self.owner.append(r)
            load[r] += p.numel() * p.element_size()
        self.mine = [p for p, o in zip(self.params, self.owner) if o == self.rank]
        self.optim = torch.optim.Adam(self.mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
