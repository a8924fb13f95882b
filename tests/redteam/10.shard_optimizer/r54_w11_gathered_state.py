# expect: fail after each step gathers every owner's optimizer state onto every rank (a consolidated state for checkpoints), keeping moments of weights it does not own
# hint: moment|exp_avg|gather|(does )?not own|another rank|other ranks
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * self.world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.mine = [i for i, r in enumerate(self.owners) if r == rank]
        self.optim = optimizer_cls([self.params[i] for i in self.mine], **kwargs) if self.mine else None
        self.full_state = {}  # parameter index -> its moments, for a checkpoint of the whole optimizer

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)
        # consolidate, as ZeroRedundancyOptimizer.consolidate_state_dict does, to save any time
        local = {}
        if self.optim is not None:
            for i, p in zip(self.mine, [self.params[i] for i in self.mine]):
                if p in self.optim.state:
                    local[i] = {k: v.clone() for k, v in self.optim.state[p].items()}
        gathered = [None] * self.world
        dist.all_gather_object(gathered, local)
        self.full_state = {i: s for part in gathered for i, s in part.items()}

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
