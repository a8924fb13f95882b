# expect: fail flattens each bucket in the order its gradients arrived but copies back in the bucket's planned order: right only when the gradients of a bucket arrive in reverse order of model.parameters(); with layers registered in another order than forward, slices land in the wrong grads (or fail to reshape)
# hint: order|arriv|slice|offset|copy back|plan|mismatch|position
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        bucket, size = [], 0
        for p in reversed(params):  # backward's order: last layer first
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:  # reached the cap: close it
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.arrived = [[] for _ in self.buckets]  # each bucket's grads, as they come
        self.pending = []  # (bucket index, flat, handle)
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[id(p)]
        self.arrived[i].append(p.grad)
        if len(self.arrived[i]) == len(self.buckets[i]):  # the bucket's last gradient
            flat = torch.cat([g.reshape(-1) for g in self.arrived[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                offset += n
        self.pending = []
        self.arrived = [[] for _ in self.buckets]


answer = OverlappedDDP
