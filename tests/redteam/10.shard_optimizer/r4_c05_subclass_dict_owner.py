# expect: pass
# hint: 
import torch
import torch.distributed as dist


class answer(object):
    """A dict of owners; zero_grad through each parameter; a step counter kept."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        n = dist.get_world_size()
        owned_bytes = dict.fromkeys(range(n), 0)
        self.owner_of = {}
        for i, p in enumerate(self.params):
            r = sorted(owned_bytes, key=lambda k: (owned_bytes[k], k))[0]
            self.owner_of[i] = r
            owned_bytes[r] += p.element_size() * p.nelement()
        mine = [p for i, p in enumerate(self.params) if self.owner_of[i] == dist.get_rank()]
        self.inner = optimizer_cls(mine, **kwargs)
        self.steps = 0

    @torch.no_grad()
    def step(self):
        self.inner.step()
        for i, p in enumerate(self.params):
            dist.broadcast(p, src=self.owner_of[i])
        self.steps += 1

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad = None
