# expect: fail DDP-style persistent bucket buffers made with torch.zeros(n), float32 whatever the model's dtype: a float64 model's gradients are rounded to float32 on their way through the bucket
# hint: float32|float64|dtype|precision|round
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
        # one flat buffer per bucket, allocated once, as DDP's reducer does
        self.buffers = [torch.zeros(sum(p.numel() for p in ps)) for ps in self.buckets]
        self.slot = {}
        for b, ps in enumerate(self.buckets):
            offset = 0
            for p in ps:
                self.slot[id(p)] = (b, offset)
                offset += p.numel()
        self.counts = [0] * len(self.buckets)
        self.handles = []
        for ps in self.buckets:
            for p in ps:
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b, offset = self.slot[id(p)]
        self.buffers[b][offset : offset + p.numel()].copy_(p.grad.reshape(-1))
        self.counts[b] += 1
        if self.counts[b] == len(self.buckets[b]):
            flat = self.buffers[b]
            flat.div_(dist.get_world_size())
            self.handles.append((b, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b, handle in self.handles:
            handle.wait()
            for p in self.buckets[b]:
                _, offset = self.slot[id(p)]
                p.grad.copy_(self.buffers[b][offset : offset + p.numel()].view_as(p))
        self.handles = []
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
