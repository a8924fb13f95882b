# expect: pass
# hint:
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Buckets as index ranges over the reversed parameter list; one bound-method hook per parameter."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.order = [params[i] for i in range(len(params) - 1, -1, -1)]  # backward's order
        self.bounds = []  # (start, stop) into self.order
        start, held = 0, 0
        for i, p in enumerate(self.order):
            held += p.numel() * p.element_size()
            if held >= bucket_bytes:
                self.bounds.append((start, i + 1))
                start, held = i + 1, 0
        if start < len(self.order):
            self.bounds.append((start, len(self.order)))
        self.bucket_of = {}
        for b, (lo, hi) in enumerate(self.bounds):
            for p in self.order[lo:hi]:
                self.bucket_of[id(p)] = b
        self.counts = [0 for _ in self.bounds]
        self.inflight = []
        for p in self.order:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        b = self.bucket_of[id(p)]
        self.counts[b] += 1
        lo, hi = self.bounds[b]
        if self.counts[b] == hi - lo:
            with torch.no_grad():
                flat = torch.cat([q.grad.reshape(-1) for q in self.order[lo:hi]])
                torch.div(flat, dist.get_world_size(), out=flat)
            self.inflight.append((b, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        while self.inflight:
            b, flat, handle = self.inflight.pop(0)
            handle.wait()
            lo, hi = self.bounds[b]
            members = self.order[lo:hi]
            with torch.no_grad():
                for p, chunk in zip(members, torch.split(flat, [q.numel() for q in members])):
                    p.grad.view(-1).copy_(chunk)
        self.counts = [0 for _ in self.bounds]
