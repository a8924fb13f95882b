# expect: fail It uses the "close before exceeding" rule but with >=, closing a bucket before a parameter that would bring it exactly to the cap, so a bucket that should hold exactly bucket_bytes is split in two.
# hint: cap|exactly|reach|exceed|>=|bucket
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            nbytes = p.numel() * p.element_size()
            if current and size + nbytes >= bucket_bytes:  # never let a bucket reach past the cap
                self.buckets.append(current)
                current, size = [], 0
            current.append(p)
            size += nbytes
        if current:
            self.buckets.append(current)
        self.bucket_of = {id(p): i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.pending = []
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
            self.pending.append((i, dist.all_reduce(flat, async_op=True), flat))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        with torch.no_grad():
            for i, handle, flat in self.pending:
                handle.wait()
                sizes = [q.numel() for q in self.buckets[i]]
                for q, part in zip(self.buckets[i], flat.split(sizes)):
                    q.grad.copy_(part.view_as(q.grad))
        self.pending = []
        self.ready = [0] * len(self.buckets)
