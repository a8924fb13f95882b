# expect: fail a full optimizer over ALL parameters kept in a module-level global and stepped on every rank (the sharded one is a decoy, never stepped): the whole state on every rank, work outside self
# hint: state|bytes|1/n|every param|all param|shard|own
import torch
import torch.distributed as dist
_FULL = {}

def owners_of(params):
    world = dist.get_world_size()
    load = [0] * world
    out = []
    for p in params:
        r = min(range(world), key=load.__getitem__)
        out.append(r)
        load[r] += p.numel() * p.element_size()
    return out


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        self.owner = owners_of(self.params)
        self.mine = [p for p, o in zip(self.params, self.owner) if o == self.rank]
        self.optim = optimizer_cls(self.mine, **kwargs)
        _FULL[id(self)] = optimizer_cls(self.params, **kwargs)

    @torch.no_grad()
    def step(self):
        _FULL[id(self)].step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
