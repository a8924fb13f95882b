# expect: pass DDP-style persistent flat buffer per bucket in the parameters' own dtype, gradients copied in as they arrive, waits on handle.get_future() in finish()
# hint:
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.nbytes
            if size >= bucket_bytes:  # reached the cap: close it
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        # one buffer per bucket, allocated once in the bucket's dtype and device
        self.buffers = [
            torch.empty(sum(p.numel() for p in ps), dtype=ps[0].dtype, device=ps[0].device)
            for ps in self.buckets
        ]
        self.slots = {}
        for b, ps in enumerate(self.buckets):
            offset = 0
            for p in ps:
                self.slots[p] = (b, offset, p.numel())
                offset += p.numel()
        self.remaining = [len(ps) for ps in self.buckets]
        self.futures = []
        for p in self.slots:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b, offset, n = self.slots[p]
        # already divided: the all-reduce's sum is then the average
        torch.div(p.grad.reshape(-1), dist.get_world_size(), out=self.buffers[b][offset : offset + n])
        self.remaining[b] -= 1
        if self.remaining[b] == 0:
            work = dist.all_reduce(self.buffers[b], async_op=True)
            self.futures.append((b, work.get_future()))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b, future in self.futures:
            future.wait()
            for p in self.buckets[b]:
                _, offset, n = self.slots[p]
                p.grad.copy_(self.buffers[b][offset : offset + n].view_as(p.grad))
        self.futures.clear()
        self.remaining = [len(ps) for ps in self.buckets]


answer = OverlappedDDP
