# expect: pass
# hint:
# name: ShardedOptimizer
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class ShardedOptimizer:
    """ZeRO-1 that also takes param groups; each owner's parameters flattened into one broadcast."""

    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        groups = params if params and isinstance(params[0], dict) else [{"params": params}]
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        self.all_params = []
        load = [0] * self.world
        owner = {}
        for g in groups:
            for p in g["params"]:
                r = load.index(min(load))  # the rank that owns the fewest bytes so far
                owner[p] = r
                load[r] += p.numel() * p.element_size()
                self.all_params.append(p)
        self.per_owner = [[p for p in self.all_params if owner[p] == r] for r in range(self.world)]
        my_groups = []
        for g in groups:
            mine = [p for p in g["params"] if owner[p] == self.rank]
            if mine:
                my_groups.append({**{k: v for k, v in g.items() if k != "params"}, "params": mine})
        self.optimizer = optimizer_cls(my_groups, **kwargs) if my_groups else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for src, share in enumerate(self.per_owner):
            if not share:
                continue
            flat = _flatten_dense_tensors([p.data for p in share])
            dist.broadcast(flat, src=src)
            if src != self.rank:
                for p, new in zip(share, _unflatten_dense_tensors(flat, [p.data for p in share])):
                    p.data.copy_(new)

    def zero_grad(self, set_to_none=True):
        for p in self.all_params:
            p.grad = None
