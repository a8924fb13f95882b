# expect: fail buckets are launched strictly in bucket order (DDP's reducer rule from section 10.1): a bucket that fills before an earlier one waits and is launched from the hook of another bucket's last gradient, not its own
# hint: (own last gradient|its own (last )?(gradient|hook)|another bucket|other bucket|in (bucket|index) order|strictly in order|earlier bucket|previous bucket|preceding bucket|bucket before|as soon as (it|its|the bucket)|fill(s|ed)? (first|early|earlier|before)|out of order|held back|wait\w* for (the )?(earlier|previous|preceding|other) bucket)
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
        self.next = 0  # buckets go out in order, as DDP's reducer sends them
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        i = self.index[p]
        self.counts[i] += 1
        # a full bucket waits for the buckets before it: launch every full bucket in order
        while self.next < len(self.buckets) and self.counts[self.next] == len(self.buckets[self.next]):
            j = self.next
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[j]])
            flat /= dist.get_world_size()
            self.handles.append((dist.all_reduce(flat, async_op=True), flat, j))
            self.next += 1

    @torch.no_grad()
    def finish(self):
        for handle, flat, i in self.handles:
            handle.wait()
            bucket = self.buckets[i]
            for p, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                p.grad.copy_(part.view_as(p))
        self.counts = [0] * len(self.buckets)
        self.next = 0
        self.handles = []
