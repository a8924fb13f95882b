# expect: fail after the broadcasts, all-reduces a checksum of the parameters and reads it on the host to verify the ranks agree: one extra collective and a host sync every step
# hint: extra|collective|all_reduce|checksum|host|sync|item|verify
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])  # fewest bytes so far
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)
        # sanity: every rank must now hold the same parameters
        check = torch.stack([p.detach().double().sum() for p in self.params]).sum().reshape(1)
        mine = check.clone()
        dist.all_reduce(check)
        if not torch.allclose(check, mine * dist.get_world_size()):
            raise RuntimeError("ranks disagree after the step")

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
