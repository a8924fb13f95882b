# expect: fail the buckets are filled in the order of model.parameters() (forward order, first layer first) instead of in reverse, so the first bucket is launched only at the end of backward
# hint: (revers|forward order|in (the )?order of `?model\.parameters|first layer'?s? (gradients? )?(go |come |is |are )?first|last layer'?s? (gradients? )?(go |come |is |are )?first|backward produces)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets = []
        bucket, size = [], 0
        for p in model.parameters():
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.handles.append((dist.all_reduce(flat, async_op=True), flat, i))

    @torch.no_grad()
    def finish(self):
        for handle, flat, i in self.handles:
            handle.wait()
            offset = 0
            for p in self.buckets[i]:
                p.grad.copy_(flat[offset:offset + p.numel()].view_as(p))
                offset += p.numel()
        self.counts = [0] * len(self.buckets)
        self.handles = []
