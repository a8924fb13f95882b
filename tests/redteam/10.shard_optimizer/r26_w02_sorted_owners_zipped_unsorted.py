# expect: fail plans largest-first over the parameters sorted by bytes, but keeps the owners as a list in that sorted order and zips it with the parameters in their GIVEN order (for the optimizer and the broadcasts alike): the plan is consistent but the bytes no longer balance, each parameter getting the owner planned for another (sizes 5, 7, 9 on 2 ranks: 20 bytes against 64; weights and biases in the order w, b, w, b: every weight on rank 0); with parameters of one size the sort changes nothing
# hint: sort|order|zip|balanc|bytes|owner|largest|index
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = []
        # largest first: the greedy then ends within a small parameter of the even split
        for p in sorted(self.params, key=lambda t: t.nbytes, reverse=True):
            r = min(range(world), key=lambda k: loads[k])
            self.owners.append(r)
            loads[r] += p.nbytes
        me = dist.get_rank()
        mine = [p for p, r in zip(self.params, self.owners) if r == me]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
