# expect: pass parameters_to_vector / vector_to_parameters per owner, optimizer built through functools.partial
# hint:
import functools

import torch
import torch.distributed as dist
from torch.nn.utils import parameters_to_vector, vector_to_parameters


def _owners(sizes, world):
    """Each size to the rank holding the fewest bytes so far (lowest rank on a tie)."""
    loads, out = [0] * world, []
    for s in sizes:
        r = loads.index(min(loads))
        out.append(r)
        loads[r] += s
    return out


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        world, self._rank = dist.get_world_size(), dist.get_rank()
        owner = _owners([p.nelement() * p.element_size() for p in params], world)
        self._all = params
        self._shares = {r: [p for p, o in zip(params, owner) if o == r] for r in range(world)}
        make = functools.partial(optimizer_cls, **kwargs)
        mine = self._shares[self._rank]
        self._opt = make(mine) if mine else None

    @torch.no_grad()
    def step(self):
        if self._opt is not None:
            self._opt.step()
        for src, share in self._shares.items():
            if not share:
                continue
            dtypes = {p.dtype for p in share}
            for dtype in sorted(dtypes, key=str):  # the same order everywhere
                group = [p for p in share if p.dtype == dtype]
                vec = parameters_to_vector(group).detach()  # torch.cat: keeps the dtype
                dist.broadcast(vec, src=src)
                if src != self._rank:
                    vector_to_parameters(vec, group)

    def zero_grad(self):
        for p in self._all:
            p.grad = None


answer = ShardedOptimizer
