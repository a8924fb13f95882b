# expect: pass `from torch.distributed import all_reduce, get_world_size` bound at import time, one closure per bucket (a nonlocal counter) registered as each parameter's hook, handles kept in launch order
# hint: 
import torch
from torch.distributed import all_reduce, get_world_size


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, bucket, nbytes = [], [], 0
        for p in reversed(list(model.parameters())):
            bucket.append(p)
            nbytes += p.numel() * p.element_size()
            if nbytes >= bucket_bytes:  # reached the cap: close it
                self.buckets.append(bucket)
                bucket, nbytes = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.launched = []  # (bucket, flat, handle), in launch order
        self.resets = []
        for bucket in self.buckets:
            self._arm(bucket)

    def _arm(self, bucket):
        ready = 0

        def hook(p):
            nonlocal ready
            ready += 1
            if ready == len(bucket):
                flat = torch.cat([q.grad.reshape(-1) for q in bucket]).div_(get_world_size())
                self.launched.append((bucket, flat, all_reduce(flat, async_op=True)))

        def reset():
            nonlocal ready
            ready = 0

        self.resets.append(reset)
        for p in bucket:
            p.register_post_accumulate_grad_hook(hook)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for bucket, flat, handle in self.launched:
            handle.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q.grad))
        self.launched = []
        for reset in self.resets:
            reset()


answer = OverlappedDDP
