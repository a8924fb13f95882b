# expect: fail keeps the bucket plan in a class attribute: a second instance keeps filling the first one's (partial) last bucket
# hint: (class|instance|shared|carr(y|ies) over|first (instance|OverlappedDDP)|its own|second|previous)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    buckets = [[]]  # the plan: lists of parameters, the last one still filling

    def __init__(self, model, bucket_bytes):
        self.cap = bucket_bytes
        for p in reversed(list(model.parameters())):
            if self._nbytes(self.buckets[-1]) >= bucket_bytes:
                self.buckets.append([])
            self.buckets[-1].append(p)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @staticmethod
    def _nbytes(bucket):
        return sum(p.numel() * p.element_size() for p in bucket)

    def _hook(self, p):
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        for i, flat, handle in self.pending:
            handle.wait()
            off = 0
            for q in self.buckets[i]:
                q.grad.copy_(flat[off:off + q.numel()].view_as(q))
                off += q.numel()
        self.pending = []
        self.counts = [0] * len(self.buckets)
