# expect: pass
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: greedy by bytes over the parameters in reverse; a flat async broadcast per owner."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        rank = dist.get_rank()
        load = {r: 0 for r in range(world)}
        owner = {}
        for p in reversed(self.params):
            r = min(load, key=lambda k: (load[k], k))
            owner[id(p)] = r
            load[r] += p.numel() * p.element_size()
        self.per_rank = [[p for p in self.params if owner[id(p)] == r] for r in range(world)]
        self.rank = rank
        self.opt = optimizer_cls(self.per_rank[rank], **kwargs) if self.per_rank[rank] else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        pending = []
        for src, ps in enumerate(self.per_rank):
            if ps:
                flat = torch.cat([p.data.flatten() for p in ps])
                pending.append((src, ps, flat, dist.broadcast(flat, src=src, async_op=True)))
        for src, ps, flat, work in pending:
            work.wait()
            if src != self.rank:
                for p, chunk in zip(ps, torch.split(flat, [p.numel() for p in ps])):
                    p.data.copy_(chunk.reshape(p.shape))

    def zero_grad(self):
        for ps in self.per_rank:
            for p in ps:
                p.grad = None


answer = ShardedOptimizer
