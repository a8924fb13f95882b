# expect: pass
# hint:
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Buckets of (params, sizes); the flat tensor split back with torch.split; hooks under no_grad."""

    def __init__(self, model, bucket_bytes):
        self.plan = []  # list of (params, numels)
        params, numels, total = [], [], 0
        for p in list(model.parameters())[::-1]:
            params.append(p)
            numels.append(p.numel())
            total += p.numel() * p.element_size()
            if total >= bucket_bytes:
                self.plan.append((params, numels))
                params, numels, total = [], [], 0
        if params:
            self.plan.append((params, numels))
        self.owner = {id(p): b for b, (ps, _) in enumerate(self.plan) for p in ps}
        self.seen = [0 for _ in self.plan]
        self.pending = []
        for ps, _ in self.plan:
            for p in ps:
                p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        b = self.owner[id(p)]
        self.seen[b] += 1
        ps, _ = self.plan[b]
        if self.seen[b] == len(ps):
            flat = torch.cat([q.grad.reshape(-1) for q in ps]).div_(dist.get_world_size())
            self.pending.append((b, flat, dist.all_reduce(flat, async_op=True)))

    @torch.no_grad()
    def finish(self):
        pending, self.pending = self.pending, []
        for b, flat, handle in pending:
            handle.wait()
            ps, numels = self.plan[b]
            for q, part in zip(ps, torch.split(flat, numels)):
                q.grad.copy_(part.view_as(q.grad))
        self.seen = [0 for _ in self.plan]


answer = OverlappedDDP
