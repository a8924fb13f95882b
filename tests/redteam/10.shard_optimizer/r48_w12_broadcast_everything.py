# expect: fail every owner broadcasts the whole parameter vector and the others keep only that owner's share: the right values, but n times the bytes, each parameter sent from every rank
# hint: bytes|traffic|cost|whole|every param|all param|n times|only (its|the owner)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for src in range(dist.get_world_size()):  # one broadcast per rank, as chapter 10.5 advises
            by_dtype = {}
            for p in self.params:
                by_dtype.setdefault(p.dtype, []).append(p)
            for dtype in sorted(by_dtype, key=str):
                ps = by_dtype[dtype]
                flat = torch.cat([p.reshape(-1) for p in ps])
                dist.broadcast(flat, src=src)
                for p, part in zip(ps, flat.split([p.numel() for p in ps])):
                    if self.owners[self._index(p)] == src:
                        p.copy_(part.view_as(p))

    def _index(self, p):
        return next(i for i, q in enumerate(self.params) if q is p)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
