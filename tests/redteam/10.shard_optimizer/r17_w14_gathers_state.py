# expect: fail gathers every owner's optimizer state onto every rank (for checkpoints), keeping moments it does not own
# hint: state|moment|own|exp_avg|gather|memory
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        loads = [0] * self.world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(self.mine, **kwargs)
        self.full_state = {}  # parameter index -> its moments, from whichever rank owns it

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)
        # keep a full copy of the optimizer state on every rank, ready for a checkpoint
        index = {id(p): i for i, p in enumerate(self.params)}
        local = {index[id(p)]: {k: v.clone() for k, v in s.items()} for p, s in self.optim.state.items()}
        gathered = [None] * self.world
        dist.all_gather_object(gathered, local)
        for part in gathered:
            self.full_state.update(part)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
