# expect: fail pre-allocates exp_avg and exp_avg_sq for every parameter in a dict of its own (for a later consolidated state dict), so each rank still holds the whole optimizer state, hidden from optimizer.state
# hint: room for both moments of each parameter it does not own
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, r in zip(self.params, self.owner) if r == rank], **kwargs)
        # room for the consolidated state (as ZeroRedundancyOptimizer.consolidate_state_dict gathers)
        self.full_state = {
            i: {"exp_avg": torch.zeros_like(p), "exp_avg_sq": torch.zeros_like(p)}
            for i, p in enumerate(self.params)
        }

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
