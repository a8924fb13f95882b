# expect: fail launches every broadcast async and waits only on the last handle, assuming they finish in order: the others are never waited on (gloo runs them on several threads, NCCL on its own stream)
# hint: wait|handle|async|last|every|all
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
        work = None
        for p, o in zip(self.params, self.owner):
            work = dist.broadcast(p.data, src=o, async_op=True)
        if work is not None:
            work.wait()  # collectives complete in order: the last one done means all done

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
