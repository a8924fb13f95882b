# expect: pass
# hint:
import torch
import torch.distributed as dist


class answer(torch.optim.Optimizer):
    """A torch Optimizer subclass holding no state itself; the inner optimizer holds this rank's."""

    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        super().__init__(params, {})
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owner = []
        for p in params:
            r = min(range(world), key=lambda k: (load[k], k))
            self.owner.append(r)
            load[r] += p.numel() * p.element_size()
        self.inner = optimizer_cls([p for p, o in zip(params, self.owner) if o == rank], **kwargs)

    @torch.no_grad()
    def step(self, closure=None):
        self.inner.step()
        ps = [p for g in self.param_groups for p in g["params"]]
        for p, o in zip(ps, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self, set_to_none=True):
        for g in self.param_groups:
            for p in g["params"]:
                p.grad = None
