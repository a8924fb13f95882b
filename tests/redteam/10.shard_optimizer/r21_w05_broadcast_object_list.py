# expect: fail sends each owner's updated parameters with dist.broadcast_object_list (pickled tensors): a host copy and pickling per step, two collectives per owner, not a tensor broadcast
# hint: broadcast_object_list|pickl|object|host|copy|tensor broadcast
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
        rank = dist.get_rank()
        for r in range(dist.get_world_size()):
            owned = [p for p, o in zip(self.params, self.owner) if o == r]
            box = [[p.detach() for p in owned] if rank == r else None]
            dist.broadcast_object_list(box, src=r)  # one message per owner
            if rank != r:
                for p, t in zip(owned, box[0]):
                    p.copy_(t.to(p.device))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
