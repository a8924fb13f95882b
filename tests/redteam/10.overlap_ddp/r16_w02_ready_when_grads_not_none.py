# expect: fail a bucket counts as ready when none of its grads is None: launched too early when zero_grad keeps zeros (set_to_none=False)
# hint: None|set_to_none|zero_grad|count|counter|ready|too early|premature
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
        self.launched = set()
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        bucket = self.buckets[i]
        # every gradient of the bucket exists: send it
        if i not in self.launched and all(q.grad is not None for q in bucket):
            self.launched.add(i)
            flat = torch.cat([q.grad.reshape(-1) for q in bucket]) / dist.get_world_size()
            self.handles.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, bucket in self.handles:
            handle.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.handles = []
        self.launched = set()


answer = OverlappedDDP
