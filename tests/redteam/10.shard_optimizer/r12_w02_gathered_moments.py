# expect: fail after each step the owners broadcast their exp_avg/exp_avg_sq, and every rank keeps a dict of all the moments (for checkpointing): state of weights it does not own kept by hand
# hint: moments?|exp_avg|state.{0,60}(gather|copy|copies|kept|dict|other rank|owner)|does not own|not own|kept anywhere|by hand|gather
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: load[r])
            load[owner] += p.numel() * p.element_size()
            self.owners.append(owner)
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)
        self.full_state = {}  # every parameter's moments, so that any rank can save a checkpoint

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)
        for i, (p, owner) in enumerate(zip(self.params, self.owners)):
            if owner == self.rank:
                st = self.optim.state[p]
                m, v = st["exp_avg"].clone(), st["exp_avg_sq"].clone()
            else:
                m, v = torch.empty_like(p), torch.empty_like(p)
            dist.broadcast(m, src=owner)
            dist.broadcast(v, src=owner)
            self.full_state[i] = {"exp_avg": m, "exp_avg_sq": v}

    def zero_grad(self):
        for p in self.params:
            p.grad = None
