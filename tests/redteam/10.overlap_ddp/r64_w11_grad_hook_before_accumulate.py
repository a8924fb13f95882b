# expect: fail registers Tensor.register_hook (called with the new gradient before it is accumulated into p.grad) instead of register_post_accumulate_grad_hook, and averages that gradient only
# hint: register_post_accumulate_grad_hook|post.?accumulat|register_hook|accumulat|before .{0,30}p\.grad|hook.{0,40}(not|never) (called|registered|ran)|no hook
# Wrong: the prompt says to register the hooks with p.register_post_accumulate_grad_hook, which runs
# once p.grad holds the step's gradient; a plain tensor hook sees only this backward's
# contribution, and finish() overwrites p.grad with its average, dropping what p.grad held before.
import functools

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.grads = {}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in self.bucket_of:
            p.register_hook(functools.partial(self._on_grad, p))

    def _on_grad(self, p, grad):
        self.grads[p] = grad
        self._hook(p)
        return None  # the gradient goes on to p.grad unchanged

    def _hook(self, p):
        i = self.bucket_of[p]
        self.ready[i] += 1
        bucket = self.buckets[i]
        if self.ready[i] == len(bucket):
            flat = torch.cat([self.grads[q].reshape(-1) for q in bucket])
            flat.div_(dist.get_world_size())
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        for handle, flat, bucket in self.pending:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q.grad))
                offset += q.numel()
        self.pending = []
        self.grads = {}
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
