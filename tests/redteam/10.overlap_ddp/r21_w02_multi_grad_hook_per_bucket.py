# expect: fail one torch.autograd.graph.register_multi_grad_hook per bucket instead of register_post_accumulate_grad_hook on every parameter: fires before the gradients are accumulated into .grad, and sends the fresh grads, not p.grad
# hint: register_post_accumulate_grad_hook|post.?accumulate|multi_grad_hook|accumulat|every parameter
import torch
import torch.distributed as dist
from torch.autograd.graph import register_multi_grad_hook


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
        self.pending = []
        # one hook per bucket, called when all of its gradients exist: no counting needed
        for i, bucket in enumerate(self.buckets):
            register_multi_grad_hook(bucket, self._bucket_hook(i), mode="all")

    def _bucket_hook(self, i):
        def hook(grads):
            flat = torch.cat([g.reshape(-1) for g in grads])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

        return hook

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        raise RuntimeError("per-bucket hooks are used instead")

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                offset += n
        self.pending = []


answer = OverlappedDDP
