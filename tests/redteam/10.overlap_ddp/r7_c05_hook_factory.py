# expect: pass
# hint:
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Hook made by a factory per bucket; state kept in plain lists."""

    def __init__(self, model, bucket_bytes):
        rev = list(model.parameters())
        rev.reverse()
        self.buckets = [[]]
        used = 0
        for p in rev:
            if used >= bucket_bytes:          # previous bucket reached the cap
                self.buckets.append([])
                used = 0
            self.buckets[-1].append(p)
            used += p.numel() * p.element_size()
        self.seen = [0] * len(self.buckets)
        self.pending = []
        for i, bucket in enumerate(self.buckets):
            hook = self._make_hook(i)
            for p in bucket:
                p.register_post_accumulate_grad_hook(hook)

    def _make_hook(self, i):
        def hook(p):
            self.seen[i] += 1
            if self.seen[i] == len(self.buckets[i]):
                flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
                flat.div_(dist.get_world_size())
                h = dist.all_reduce(flat, async_op=True)
                self.pending.append((h, flat, self.buckets[i]))
        return hook

    def finish(self):
        for h, flat, params in self.pending:
            h.wait()
            offset = 0
            for p in params:
                p.grad.copy_(flat[offset:offset + p.numel()].view(p.shape))
                offset += p.numel()
        self.pending = []
        self.seen = [0] * len(self.buckets)


answer = OverlappedDDP
