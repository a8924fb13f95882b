# expect: pass a one-parameter bucket is sent as its own flattened gradient (a view, no torch.cat copy); sizes from Tensor.nbytes; waits in reverse launch order
# hint:
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, total = [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            total += p.nbytes
            if total >= bucket_bytes:
                self.buckets.append(tuple(current))
                current, total = [], 0
        if current:
            self.buckets.append(tuple(current))
        self.index = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.count = [0] * len(self.buckets)
        self.handles = []
        self.flats = {}
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.index[p]
        self.count[i] += 1
        if self.count[i] != len(self.buckets[i]):
            return
        bucket = self.buckets[i]
        if len(bucket) == 1 and bucket[0].grad.is_contiguous():
            flat = bucket[0].grad.view(-1)  # the flattened bucket, sharing p.grad's memory
        else:
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])
        flat.div_(dist.get_world_size())
        self.flats[i] = flat
        self.handles.append(dist.all_reduce(flat, async_op=True))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle in reversed(self.handles):
            handle.wait()
        for i, flat in self.flats.items():
            offset = 0
            for q in self.buckets[i]:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))  # a no-op for a view
                offset += q.numel()
        self.handles = []
        self.flats = {}
        self.count = [0] * len(self.buckets)


answer = OverlappedDDP
