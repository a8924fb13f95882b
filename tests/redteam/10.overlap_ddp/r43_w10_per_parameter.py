# expect: fail It all-reduces each parameter's gradient from its own hook as soon as it arrives and plans buckets only for show, so it sends one collective per parameter, not one per bucket.
# hint: bucket|per parameter|one all-reduce|sent
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
        # no need to wait for the rest of the bucket: send this gradient at once
        with torch.no_grad():
            flat = p.grad.reshape(-1).clone()
            flat.div_(dist.get_world_size())
        handle = dist.all_reduce(flat, async_op=True)
        self.pending.append((p, handle, flat))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        with torch.no_grad():
            for q, handle, flat in self.pending:
                handle.wait()
                q.grad.copy_(flat.view_as(q.grad))
        self.pending = []
        self.ready = [0] * len(self.buckets)
