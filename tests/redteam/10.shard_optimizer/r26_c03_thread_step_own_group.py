# expect: pass its own optimizer step runs in a worker thread while the broadcasts it only receives go on (disjoint tensors), joined before the first broadcast it sends; broadcasts on a process group of its own (dist.new_group over every rank, made in __init__ on all ranks)
# hint: 
import threading

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        self.me = dist.get_rank()
        self.group = dist.new_group(ranks=list(range(world)))
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.nbytes
        mine = [p for p, r in zip(self.params, self.owners) if r == self.me]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        worker = None
        if self.optim is not None:
            worker = threading.Thread(target=self.optim.step)
            worker.start()
        for p, r in zip(self.params, self.owners):
            if r == self.me and worker is not None:
                worker.join()  # my parameters must be updated before I send them
                worker = None
            dist.broadcast(p.data, src=r, group=self.group)
        if worker is not None:
            worker.join()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
