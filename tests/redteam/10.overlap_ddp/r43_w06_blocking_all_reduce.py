# expect: fail It calls dist.all_reduce without async_op=True inside the hook, a blocking call that makes backward wait for each bucket's transfer, so nothing overlaps and finish() has no handle to wait on.
# hint: async|wait|block|hook|overlap
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.model = model
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
        self.ready = [0] * len(self.buckets)
        self.pending = []  # (bucket index, handle, flat)
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            with torch.no_grad():
                flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
                flat.div_(dist.get_world_size())
            dist.all_reduce(flat)  # done when it returns: nothing left to wait for
            self.pending.append((i, None, flat))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        with torch.no_grad():
            for i, handle, flat in self.pending:
                if handle is not None:
                    handle.wait()
                offset = 0
                for q in self.buckets[i]:
                    n = q.numel()
                    q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                    offset += n
        self.pending = []
        self.ready = [0] * len(self.buckets)
