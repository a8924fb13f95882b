# expect: pass
# hint:
import torch
import torch.distributed as dist


def _nbytes(p):
    return p.numel() * torch.finfo(p.dtype).bits // 8


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        buckets = {}  # (owner, dtype) -> parameters, in the order of params on every rank
        for p in self.params:
            r = min(range(self.world), key=lambda i: (loads[i], i))
            loads[r] += _nbytes(p)
            buckets.setdefault((r, p.dtype), []).append(p)
        self.buckets = list(buckets.items())
        mine = [p for (r, _), ps in self.buckets if r == self.rank for p in ps]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        sent = []
        for (r, dtype), ps in self.buckets:
            if r == self.rank:
                flat = torch.cat([p.reshape(-1) for p in ps])
            else:
                flat = torch.empty(sum(p.numel() for p in ps), dtype=dtype, device=ps[0].device)
            work = dist.broadcast(flat, src=r, async_op=True)
            sent.append((ps, flat, work.get_future()))
        torch.futures.wait_all([fut for _, _, fut in sent])
        for ps, flat, _ in sent:
            torch._foreach_copy_(ps, [part.view_as(p) for p, part in zip(ps, flat.split([p.numel() for p in ps]))])

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
