# expect: fail After the broadcast it all-gathers every owner's moments so each rank has the full optimizer state for checkpointing, which keeps the moments of weights this rank does not own and throws the saving away.
# hint: moments|state|gather|own|shard
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: (load[r], r))
            self.owners.append(owner)
            load[owner] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)
        self.full_state = {}
        for p, owner in zip(self.params, self.owners):  # everyone gets every moment
            moments = []
            for name in ("exp_avg", "exp_avg_sq"):
                t = (self.optim.state[p][name].clone() if owner == self.rank else torch.empty_like(p))
                dist.broadcast(t, src=owner)
                moments.append(t)
            self.full_state[p] = moments

    def zero_grad(self):
        for p in self.params:
            p.grad = None
