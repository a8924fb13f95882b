# expect: fail keeps exp_avg/exp_avg_sq for every parameter in a dict, by hand with Adam's DEFAULT betas (0.9, 0.999) hard-coded (ignores kwargs), so each rank holds full-size moments
# hint: keeps .*(exp_avg|moment)
import torch
import torch.distributed as dist


class answer:
    """ZeRO-1 by hand, plus a by-hand copy of Adam's moments "to monitor training"."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.optim = optimizer_cls(self.mine, **kwargs)
        self.betas = (0.9, 0.999)  # Adam's defaults
        # a running view of Adam's moments for every parameter (for logging)
        self.moments = {
            i: {"exp_avg": torch.zeros_like(p), "exp_avg_sq": torch.zeros_like(p)}
            for i, p in enumerate(self.params)
        }

    @torch.no_grad()
    def step(self):
        b1, b2 = self.betas
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            m = self.moments[i]
            m["exp_avg"].mul_(b1).add_(p.grad, alpha=1 - b1)
            m["exp_avg_sq"].mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
