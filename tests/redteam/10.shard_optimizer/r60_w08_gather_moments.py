# expect: fail after each step every owner broadcasts its Adam moments too, and every rank keeps the full set (for checkpointing): the state is replicated again
# hint: moment|exp_avg|state|gather|replicat|owner|not own|memory|bytes
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)
        self.full_state = {}  # index -> {name: tensor}, every parameter's moments, for a checkpoint

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)
        for i, (p, o) in enumerate(zip(self.params, self.owners)):
            mine = self.optim.state.get(p, {}) if o == self.rank else {}
            kept = self.full_state.setdefault(i, {})
            for name in ("exp_avg", "exp_avg_sq"):
                t = mine[name].clone() if name in mine else torch.zeros_like(p)
                dist.broadcast(t, src=o)
                kept[name] = t

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
