# expect: fail It registers p.register_hook (a tensor hook that runs before the gradient is accumulated) instead of register_post_accumulate_grad_hook and sends the incoming gradient, which matches p.grad only when p.grad starts as None or zeros, and never calls _hook.
# hint: post_accumulate|register_hook|accumulat|hook
# name: OverlappedDDP
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
        self.bucket_of = {id(p): i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.incoming = {}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in model.parameters():
            p.register_hook(self._make_grad_hook(p))

    def _make_grad_hook(self, p):
        def grad_hook(grad):
            self.incoming[id(p)] = grad
            i = self.bucket_of[id(p)]
            self.ready[i] += 1
            if self.ready[i] == len(self.buckets[i]):
                with torch.no_grad():
                    flat = torch.cat([self.incoming[id(q)].reshape(-1) for q in self.buckets[i]])
                    flat.div_(dist.get_world_size())
                self.pending.append((i, dist.all_reduce(flat, async_op=True), flat))
            return grad

        return grad_hook

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        raise RuntimeError("not used: the tensor hooks above do the work")

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        with torch.no_grad():
            for i, handle, flat in self.pending:
                handle.wait()
                offset = 0
                for q in self.buckets[i]:
                    n = q.numel()
                    q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                    offset += n
        self.incoming.clear()
        self.pending = []
        self.ready = [0] * len(self.buckets)
