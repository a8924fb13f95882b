# expect: fail flattens each bucket in the order its gradients arrived but splits it back in the planned order, so gradients land in the wrong parameters when backward's order differs
# hint: average|gradient|order|bucket
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        current, size = [], 0
        for p in reversed(params):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.arrived = [[] for _ in self.buckets]  # the bucket's gradients, as they come
        self.pending = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.arrived[i].append(p.grad)
        if len(self.arrived[i]) == len(self.buckets[i]):
            flat = torch.cat([g.reshape(-1) for g in self.arrived[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            sizes = [q.numel() for q in self.buckets[i]]
            for q, part in zip(self.buckets[i], flat.split(sizes)):
                q.grad.copy_(part.view_as(q.grad))
        self.pending = []
        self.arrived = [[] for _ in self.buckets]


answer = OverlappedDDP
