# expect: fail one flat buffer per owner is broadcast, but the received buffer is never copied back into the parameters
# hint: cop(y|ied) (it )?back|never (copied|written) (back )?in|into the parameters
import torch
import torch.distributed as dist


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        load = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in self.params:
            r = min(range(self.world), key=lambda k: load[k])
            self.shares[r].append(p)
            load[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):
            flat = torch.cat([p.reshape(-1) for p in share])
            dist.broadcast(flat, src=src)  # one broadcast per rank

    def zero_grad(self):
        for p in self.params:
            p.grad = None
