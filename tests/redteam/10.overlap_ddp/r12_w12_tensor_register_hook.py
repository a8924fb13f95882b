# expect: fail the hooks are registered with p.register_hook (a gradient hook, called before the gradient is accumulated into p.grad) instead of p.register_post_accumulate_grad_hook; the bucket is flattened from the hooks' gradient arguments
# hint: (register_post_accumulate_grad_hook|post.?accumulat|register_hook\b|before (it is |the gradient is |being )?accumulat|accumulat\w* (into|in) (`)?p\.grad|hook (api|kind|type)|wrong hook|tensor hook)
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
        self.counts = [0] * len(self.buckets)
        self.grads = [dict() for _ in self.buckets]
        self.handles = []
        for i, b in enumerate(self.buckets):
            for p in b:
                p.register_hook(self._make_hook(p, i))

    def _make_hook(self, p, i):
        def hook(grad):
            self._hook(p, i, grad)
            return grad

        return hook

    @torch.no_grad()
    def _hook(self, p, i, grad):
        self.grads[i][p] = grad
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([self.grads[i][q].reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.handles.append((dist.all_reduce(flat, async_op=True), flat, i))

    @torch.no_grad()
    def finish(self):
        for handle, flat, i in self.handles:
            handle.wait()
            bucket = self.buckets[i]
            for p, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                p.grad.copy_(part.view_as(p))
        self.counts = [0] * len(self.buckets)
        self.grads = [dict() for _ in self.buckets]
        self.handles = []
