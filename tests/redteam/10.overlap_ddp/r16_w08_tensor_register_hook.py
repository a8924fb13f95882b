# expect: fail uses p.register_hook (before accumulation) instead of register_post_accumulate_grad_hook, sending the incoming gradient rather than p.grad
# hint: register_post_accumulate_grad_hook|register_hook|post.?accumulate|accumulat|p\.grad
import functools

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.grads = [{} for _ in self.buckets]
        self.pending = []
        for p in model.parameters():
            # the gradient itself, as autograd computes it: no need to read p.grad
            p.register_hook(functools.partial(self._grad_hook, p))

    def _grad_hook(self, p, grad):
        self.grads[self.bucket_of[p]][p] = grad
        self._hook(p)
        return grad

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        bucket = self.buckets[i]
        if len(self.grads[i]) == len(bucket):
            flat = torch.cat([self.grads[i][q].reshape(-1) for q in bucket])
            flat /= dist.get_world_size()
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, bucket in self.pending:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))
                offset += q.numel()
        self.pending = []
        self.grads = [{} for _ in self.buckets]


answer = OverlappedDDP
