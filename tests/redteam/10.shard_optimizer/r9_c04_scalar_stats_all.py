# expect: pass
# hint: 
import torch
import torch.distributed as dist


class answer:
    """Correct ZeRO-1, plus a per-parameter scalar log (grad norm, step count) for every parameter: scalars, not moments."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, o in zip(self.params, self.owner) if o == self.rank], **kwargs)
        self.grad_norms = [torch.zeros(()) for _ in self.params]
        self.steps = 0

    @torch.no_grad()
    def step(self):
        for n, p in zip(self.grad_norms, self.params):
            if p.grad is not None:
                n.copy_(p.grad.norm())
        self.optim.step()
        self.steps += 1
        handles = [dist.broadcast(p.data, src=o, async_op=True) for p, o in zip(self.params, self.owner)]
        for h in handles:
            h.wait()

    def zero_grad(self):
        for p in self.params:
            p.grad = None
