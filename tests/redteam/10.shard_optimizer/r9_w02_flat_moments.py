# expect: fail keeps Adam's moments for ALL parameters flattened into two big tensors (self._flat_m, self._flat_v), so each rank holds the full optimizer state
# hint: keeps .*(exp_avg|moment)
import torch
import torch.distributed as dist


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(
            [p for p, o in zip(self.params, self.owner) if o == rank], **kwargs
        )
        self.b1, self.b2 = kwargs.get("betas", (0.9, 0.999))
        total = sum(p.numel() for p in self.params)
        # flat running moments of the averaged gradient (contiguous = cheap, I thought)
        self._flat_m = torch.zeros(total)
        self._flat_v = torch.zeros(total)

    @torch.no_grad()
    def step(self):
        g = torch.cat(
            [(p.grad if p.grad is not None else torch.zeros_like(p)).reshape(-1) for p in self.params]
        )
        self._flat_m.mul_(self.b1).add_(g, alpha=1 - self.b1)
        self._flat_v.mul_(self.b2).addcmul_(g, g, value=1 - self.b2)
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
