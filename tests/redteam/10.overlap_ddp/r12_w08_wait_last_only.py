# expect: fail finish() waits only on the last bucket's handle, assuming the all-reduces complete in launch order, so the other handles are never waited on
# hint: (every handle|each handle|all (the )?handles|wait\w* (on |for )?(every|each|all)|not waited|never waited|unwaited|only (waits? (on |for )?)?the last|last (handle|bucket) only)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets, bucket, size = [], [], 0
        for p in reversed(list(model.parameters())):
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.index = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        i = self.index[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.handles.append((dist.all_reduce(flat, async_op=True), flat, i))

    @torch.no_grad()
    def finish(self):
        if self.handles:
            self.handles[-1][0].wait()  # gloo runs them in order: the last one done means all are
        for handle, flat, i in self.handles:
            bucket = self.buckets[i]
            for p, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                p.grad.copy_(part.view_as(p))
        self.counts = [0] * len(self.buckets)
        self.handles = []
