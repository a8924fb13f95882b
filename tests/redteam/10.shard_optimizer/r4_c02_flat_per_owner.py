# expect: pass
# hint: 
import torch
import torch.distributed as dist


class answer:
    """One flat buffer per owner: a broadcast per rank."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = [*params]
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = min(range(world), key=load.__getitem__)
            self.shares[r].append(p)
            load[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.shares[rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.cat([p.detach().reshape(-1) for p in share])
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None
