# expect: fail keeps exp_avg/exp_avg_sq for every parameter in a module-level global dict, outside the object
# hint: keeps .*(exp_avg|moment)
import torch
import torch.distributed as dist

_ADAM_STATE = {}  # param index -> (exp_avg, exp_avg_sq), shared by all instances


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=loads.__getitem__)
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, o in zip(self.params, self.owner) if o == rank], **kwargs)
        self.betas = kwargs.get("betas", (0.9, 0.999))
        _ADAM_STATE.clear()

    @torch.no_grad()
    def step(self):
        b1, b2 = self.betas
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            if i not in _ADAM_STATE:
                _ADAM_STATE[i] = (torch.zeros_like(p), torch.zeros_like(p))
            m, v = _ADAM_STATE[i]
            m.lerp_(p.grad, 1 - b1)
            v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
