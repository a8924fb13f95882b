# expect: pass step(closure=None) like torch.optim, param-group dicts accepted, owners via running byte counts, per-param broadcast
# hint:
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        flat = []
        for item in params:
            if isinstance(item, dict):
                flat.extend(item["params"])
            else:
                flat.append(item)
        self.all_params = flat
        world, rank = dist.get_world_size(), dist.get_rank()
        owned_bytes = [0] * world
        self.src = []
        for p in flat:
            r = owned_bytes.index(min(owned_bytes))
            owned_bytes[r] += p.numel() * p.element_size()
            self.src.append(r)
        self.my_params = [p for p, r in zip(flat, self.src) if r == rank]
        self.optim = optimizer_cls(self.my_params, **kwargs) if self.my_params else None

    @property
    def param_groups(self):
        return self.optim.param_groups if self.optim is not None else []

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        if self.optim is not None:
            self.optim.step()
        with torch.no_grad():
            for p, r in zip(self.all_params, self.src):
                dist.broadcast(p.data, r)
        return loss

    def zero_grad(self, set_to_none=True):
        for p in self.all_params:
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.requires_grad_(False)
                    p.grad.zero_()
