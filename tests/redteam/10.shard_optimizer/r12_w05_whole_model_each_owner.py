# expect: fail each owner broadcasts a flat buffer of the WHOLE model (n broadcasts of all parameters) and the others keep only its share: values right, n times the bytes of one model per step
# hint: bytes|whole model|all (the )?(param|weight)s|entire|its own (share|param)|own share|only (its|the owner)|too (much|many|large)|n times|size of (the )?broadcast
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        load = [0] * self.world
        self.owners = []
        for p in self.params:
            owner = min(range(self.world), key=lambda r: load[r])
            load[owner] += p.numel() * p.element_size()
            self.owners.append(owner)
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        sizes = [p.numel() for p in self.params]
        for src in range(self.world):  # one flat buffer per owner: one broadcast per rank
            flat = torch.cat([p.reshape(-1) for p in self.params])
            dist.broadcast(flat, src=src)
            for p, o, part in zip(self.params, self.owners, flat.split(sizes)):
                if o == src and src != self.rank:
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None
