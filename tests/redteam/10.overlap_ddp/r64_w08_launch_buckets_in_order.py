# expect: fail holds back a bucket that fills before an earlier bucket and launches it later from another bucket's hook (DDP's in-order launch), not from the hook of its own last gradient
# hint: own last|its last|in order|order|held back|defer|delay|postpon|another (bucket|hook)|later hook|as soon as|when (its|the) last
# Wrong: the prompt says to launch a bucket in the hook where its last gradient arrives; keeping
# DDP's in-order launches (section 10.1) delays a bucket that is ready early to another hook.
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
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.next_bucket = 0  # buckets are launched in order, as DDP's reducer does
        self.pending = []
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        self.ready[self.bucket_of[p]] += 1
        while (
            self.next_bucket < len(self.buckets)
            and self.ready[self.next_bucket] == len(self.buckets[self.next_bucket])
        ):
            bucket = self.buckets[self.next_bucket]
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])
            flat.div_(dist.get_world_size())
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))
            self.next_bucket += 1

    def finish(self):
        for handle, flat, bucket in self.pending:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q.grad))
                offset += q.numel()
        self.pending = []
        self.ready = [0] * len(self.buckets)
        self.next_bucket = 0


answer = OverlappedDDP
