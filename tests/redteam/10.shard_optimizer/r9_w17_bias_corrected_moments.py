# expect: fail keeps Adam's BIAS-CORRECTED moments (m_hat, v_hat, 'what Adam really uses') for every parameter in a dict attribute, so each rank holds full-size moment state for parameters it does not own
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
        self.betas = kwargs.get("betas", (0.9, 0.999))
        # a running view of Adam's moments for every parameter (for logging)
        self.t = 0
        self._m = [torch.zeros_like(p) for p in self.params]
        self._v = [torch.zeros_like(p) for p in self.params]
        self.moments = {}

    @torch.no_grad()
    def step(self):
        b1, b2 = self.betas
        self.t += 1
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            m, v = self._m[i], self._v[i]
            # keep only the bias-corrected moments between steps, in place
            if self.t > 1:
                m.mul_(1 - b1 ** (self.t - 1))
                v.mul_(1 - b2 ** (self.t - 1))
            m.mul_(b1).add_(p.grad, alpha=1 - b1).div_(1 - b1 ** self.t)
            v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2).div_(1 - b2 ** self.t)
            self.moments[i] = (m, v)
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
