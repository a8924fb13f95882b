# expect: fail the flat buffers are made in the default dtype (float32): a float64 model's parameters are rounded on the way
# hint: float32|float64|dtype|narrower|torch.zeros|torch.empty
import torch
import torch.distributed as dist


class answer:
    """Greedy byte balance; a flat fp32 buffer of ALL parameters (parameters, not state), one broadcast per owner."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.owner = []
        for p in self.params:
            r = min(range(self.world), key=lambda i: loads[i])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.groups = [[p for p, o in zip(self.params, self.owner) if o == r] for r in range(self.world)]
        self.optim = optimizer_cls(self.groups[self.rank], **kwargs)
        # one flat buffer per owner, holding that owner's parameters
        self.flat = [torch.zeros(sum(p.numel() for p in g), dtype=torch.float32) for g in self.groups]

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for r, (group, buf) in enumerate(zip(self.groups, self.flat)):
            if not group:
                continue
            if r == self.rank:
                torch.cat([p.reshape(-1) for p in group], out=buf)
            dist.broadcast(buf, src=r)
            for p, part in zip(group, buf.split([p.numel() for p in group])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None
