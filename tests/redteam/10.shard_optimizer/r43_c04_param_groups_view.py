# expect: pass Owners found by a sort over (bytes held, rank) at each parameter, a read-only param_groups property, per-parameter torch.distributed.broadcast, and zero_grad via torch.optim-style set_to_none flag.
# hint: 
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        if not params:
            raise ValueError("ShardedOptimizer got an empty parameter list")
        world = dist.get_world_size()
        counts = {r: 0 for r in range(world)}
        plan = []
        for p in params:
            r = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]))[0][0]
            plan.append((p, r))
            counts[r] += p.nbytes
        self._plan = plan
        own = [p for p, r in plan if r == dist.get_rank()]
        self._opt = optimizer_cls(own, **kwargs) if own else None

    @property
    def param_groups(self):
        return [] if self._opt is None else self._opt.param_groups

    @torch.no_grad()
    def step(self):
        if self._opt is not None:
            self._opt.step()
        for p, r in self._plan:
            torch.distributed.broadcast(p.data, r)

    def zero_grad(self, set_to_none: bool = True):
        for p, _ in self._plan:
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.zero_()
