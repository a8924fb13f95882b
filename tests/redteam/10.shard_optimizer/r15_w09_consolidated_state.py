# expect: fail gathers every owner's Adam moments onto every rank after each step (for checkpoints): no memory saved
# hint: moment|exp_avg|state.*(kept|held|gather|elsewhere|outside|every rank|other rank)|not own|consolidat|memory|1/n
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda k: loads[k])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owner) if o == self.rank]
        self.opt = optimizer_cls(mine, **kwargs)
        self.full_state = {}  # index -> moments, on every rank, so any rank can save a checkpoint

    @torch.no_grad()
    def step(self):
        self.opt.step()
        for p, src in zip(self.params, self.owner):
            dist.broadcast(p.data, src=src)
        for i, (p, src) in enumerate(zip(self.params, self.owner)):
            kept = self.full_state.setdefault(
                i, {k: torch.zeros_like(p) for k in ("exp_avg", "exp_avg_sq")}
            )
            for k, buf in kept.items():
                if src == self.rank:
                    buf.copy_(self.opt.state[p][k])
                dist.broadcast(buf, src=src)

    def state_dict(self):
        return {"state": self.full_state}

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
