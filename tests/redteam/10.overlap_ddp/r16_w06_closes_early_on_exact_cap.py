# expect: fail closes a bucket before a parameter that would make it reach the cap exactly (size + nbytes >= cap), one parameter early
# hint: cap|exactly|>=|reach|bucket_bytes|one parameter early|closing rule|close
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        # no bucket may go over the cap: close the current one before a parameter that
        # would fill it
        self.buckets, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            nbytes = p.numel() * p.element_size()
            if current and size + nbytes >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
            current.append(p)
            size += nbytes
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            bucket = self.buckets[i]
            flat = torch.cat([q.grad.reshape(-1) for q in bucket]) / dist.get_world_size()
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, bucket in self.pending:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))
                offset += q.numel()
        self.pending = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
