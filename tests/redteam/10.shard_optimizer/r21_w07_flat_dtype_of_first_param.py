# expect: fail one flat buffer per owner in the dtype of that owner's first parameter: every parameter of another dtype is cast into it (fp32 rounded to bf16, say); right only for single-dtype models
# hint: dtype|round|cast|flat|buffer|mixed
# open: not caught on purpose: every model the prompt describes has parameters of one dtype, where the first parameter's dtype is each one's; a case that mixed float32 and float64 layers was tried and failed 7 right answers written from the prompt (one flat buffer per owner, made by torch.cat or in the first parameter's dtype, right for every model it names)
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
        for r in range(dist.get_world_size()):
            owned = [p for p, o in zip(self.params, self.owner) if o == r]
            if not owned:
                continue
            dtype = owned[0].dtype  # the model's dtype
            if dist.get_rank() == r:
                flat = torch.cat([p.detach().reshape(-1).to(dtype) for p in owned])
            else:
                flat = torch.empty(sum(p.numel() for p in owned), dtype=dtype, device=owned[0].device)
            dist.broadcast(flat, src=r)  # one broadcast per owner
            offset = 0
            for p in owned:
                p.copy_(flat[offset : offset + p.numel()].view_as(p))
                offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
