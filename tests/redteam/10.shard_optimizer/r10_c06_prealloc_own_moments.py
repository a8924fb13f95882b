# expect: pass preallocates Adam's moment buffers eagerly, but only for the parameters this rank owns
# hint: -
import torch
import torch.distributed as dist
from torch.optim.optimizer import _get_scalar_dtype


class ShardedOptimizer:
    """ZeRO-1; Adam's state for this rank's share is allocated up front, so the memory is known at once."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        load = [0] * self.world
        self.owner = {}
        for p in self.params:
            r = min(range(self.world), key=lambda i: (load[i], i))
            self.owner[p] = r
            load[r] += p.numel() * p.element_size()
        self.mine = [p for p in self.params if self.owner[p] == self.rank]
        self.optim = optimizer_cls(self.mine, **kwargs)
        if issubclass(optimizer_cls, torch.optim.Adam):
            for group in self.optim.param_groups:
                fused_or_capt = group.get("fused") or group.get("capturable")
                for p in group["params"]:
                    if fused_or_capt:
                        step = torch.zeros((), dtype=_get_scalar_dtype(is_fused=group.get("fused")), device=p.device)
                    else:
                        step = torch.tensor(0.0, dtype=_get_scalar_dtype())
                    state = {
                        "step": step,
                        "exp_avg": torch.zeros_like(p, memory_format=torch.preserve_format),
                        "exp_avg_sq": torch.zeros_like(p, memory_format=torch.preserve_format),
                    }
                    if group.get("amsgrad"):
                        state["max_exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    self.optim.state[p] = state

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p in self.params:
            dist.broadcast(p.data, src=self.owner[p])

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
