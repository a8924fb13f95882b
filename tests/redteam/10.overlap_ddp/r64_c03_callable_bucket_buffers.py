# expect: pass
# hint:
# Right: each bucket is a callable object registered as the hook of its parameters; it keeps a
# flat buffer of its own (the parameters' dtype) that torch.cat fills in place, reused each step.
import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self, params):
        self.params = params
        self.sizes = [p.numel() for p in params]
        self.buffer = torch.empty(sum(self.sizes), dtype=params[0].dtype, device=params[0].device)
        self.ready = 0
        self.handle = None

    def __call__(self, p):  # autograd calls this once p.grad holds this step's gradient
        self.ready += 1
        if self.ready == len(self.params):
            torch.cat([q.grad.reshape(-1) for q in self.params], out=self.buffer)
            self.buffer.div_(dist.get_world_size())
            self.handle = dist.all_reduce(self.buffer, async_op=True)

    def finish(self):
        if self.handle is not None:
            self.handle.wait()
            for q, part in zip(self.params, self.buffer.split(self.sizes), strict=True):
                q.grad.copy_(part.view_as(q.grad))
        self.handle = None
        self.ready = 0


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, group, size = [], [], 0
        for p in reversed(list(model.parameters())):
            group.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(_Bucket(group))
                group, size = [], 0
        if group:
            self.buckets.append(_Bucket(group))
        for bucket in self.buckets:
            for p in bucket.params:
                p.register_post_accumulate_grad_hook(bucket)

    def finish(self):
        for bucket in self.buckets:
            bucket.finish()


answer = OverlappedDDP
