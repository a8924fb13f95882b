# expect: pass
# hint:
# Right, another API: owners from a min-heap of (bytes, rank), each owner's parameters sent as
# one buffer with torch.nn.utils.parameters_to_vector / vector_to_parameters (own dtype kept,
# grouped by dtype), zero_grad(set_to_none) style loop over every parameter.
import heapq

import torch
import torch.distributed as dist
from torch.nn.utils import parameters_to_vector, vector_to_parameters


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.all_params = [p for p in params]
        world = dist.get_world_size()
        self.rank = dist.get_rank()
        heap = [(0, r) for r in range(world)]
        owners = []
        for p in self.all_params:
            load, r = heapq.heappop(heap)
            owners.append(r)
            heapq.heappush(heap, (load + p.numel() * p.element_size(), r))
        self.shares = []  # (owner, params of one dtype), in the same order on every rank
        for r in range(world):
            for dtype in dict.fromkeys(p.dtype for p in self.all_params):
                share = [p for p, o in zip(self.all_params, owners) if o == r and p.dtype == dtype]
                if share:
                    self.shares.append((r, share))
        own = [p for p, o in zip(self.all_params, owners) if o == self.rank]
        self.opt = optimizer_cls(own, **kwargs) if own else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for src, share in self.shares:
            if src == self.rank:
                dist.broadcast(parameters_to_vector(share), src=src)
            else:
                vec = torch.empty(sum(p.numel() for p in share), dtype=share[0].dtype)
                dist.broadcast(vec, src=src)
                vector_to_parameters(vec, share)

    def zero_grad(self):
        for p in self.all_params:
            p.grad = None


answer = ShardedOptimizer
