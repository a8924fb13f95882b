# expect: pass
# hint:
import torch
import torch.distributed as dist


class _Sharded:
    def __init__(self, params, optimizer_cls, kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        order = sorted(range(len(self.params)), key=lambda i: -self.params[i].numel())
        load = [0] * world
        self.owner = [0] * len(self.params)
        for i in order:
            r = load.index(min(load))
            self.owner[i] = r
            load[r] += self.params[i].nbytes
        self.opt = optimizer_cls([p for p, o in zip(self.params, self.owner) if o == rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.opt.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


def answer(params, optimizer_cls, **kwargs):
    return _Sharded(params, optimizer_cls, kwargs)
