# expect: fail builds a second torch.optim.Adam (imported directly, not optimizer_cls) over clones of ALL parameters and steps it each step "to check the result", so each rank holds the full Adam state
# hint: keeps .*(exp_avg|moment)
import torch
import torch.distributed as dist
from torch.optim import Adam


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, o in zip(self.params, self.owner) if o == rank], **kwargs)
        # a plain DDP-style reference on shadow copies, to compare with while debugging
        self.shadow = [p.detach().clone().requires_grad_() for p in self.params]
        self.reference = Adam(self.shadow, **kwargs)

    @torch.no_grad()
    def step(self):
        for s, p in zip(self.shadow, self.params):
            s.grad = None if p.grad is None else p.grad.clone()
        self.reference.step()
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
        for s in self.shadow:
            s.grad = None
