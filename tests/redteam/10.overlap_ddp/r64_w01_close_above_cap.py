# expect: fail closes a bucket only once it holds more than bucket_bytes (>), not when it reaches the cap (>=)
# hint: reach|>=|at least|exactly|(equal|equals|equal to) (the )?cap|strictly|cap.*clos|clos.*cap|bucket_bytes or more
# Wrong: the prompt names this rule as failing: a bucket that reaches bucket_bytes exactly must
# close, but `size > bucket_bytes` keeps it open and puts the next parameter in it too.
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
            if size > bucket_bytes:  # full once it is over the cap
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.ready[i] += 1
        bucket = self.buckets[i]
        if self.ready[i] == len(bucket):
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])
            flat.div_(dist.get_world_size())
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        for handle, flat, bucket in self.pending:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q.grad))
                offset += q.numel()
        self.pending = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
