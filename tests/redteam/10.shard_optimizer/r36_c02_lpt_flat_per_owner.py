# expect: pass largest-first (LPT) assignment to the least-loaded rank, one flat torch.cat buffer per owner, split back
# hint:
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self._all = list(params)
        n = dist.get_world_size()
        loads = [0] * n
        self._shards = [[] for _ in range(n)]
        nbytes = lambda t: t.numel() * t.element_size()  # noqa: E731
        order = sorted(range(len(self._all)), key=lambda i: (-nbytes(self._all[i]), i))
        for i in order:
            r = min(range(n), key=lambda k: (loads[k], k))
            loads[r] += nbytes(self._all[i])
            self._shards[r].append(i)
        for shard in self._shards:
            shard.sort()  # keep each shard in the parameters' own order
        me = dist.get_rank()
        own = [self._all[i] for i in self._shards[me]]
        self._local = optimizer_cls(own, **kwargs) if own else None

    @torch.no_grad()
    def step(self):
        if self._local is not None:
            self._local.step()
        for src, shard in enumerate(self._shards):
            if not shard:
                continue
            tensors = [self._all[i] for i in shard]
            flat = torch.cat([t.detach().reshape(-1) for t in tensors])  # keeps their dtype
            dist.broadcast(flat, src=src)
            for t, part in zip(tensors, flat.split([t.numel() for t in tensors])):
                t.copy_(part.view_as(t))

    def zero_grad(self):
        for p in self._all:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()
