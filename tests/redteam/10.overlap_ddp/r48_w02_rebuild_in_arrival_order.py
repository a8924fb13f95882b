# expect: fail rebuilds the buckets after the first step in the order the gradients arrived (DDP's rebuild), not reverse model.parameters()
# hint: order|reverse|arriv|bucket
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.bucket_bytes = bucket_bytes
        params = list(model.parameters())
        self._plan(list(reversed(params)))  # first step: reverse order of the parameters
        self.arrival = []
        self.rebuilt = False
        self.pending = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _plan(self, order):
        self.buckets = []
        current, size = [], 0
        for p in order:
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= self.bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        if not self.rebuilt:
            self.arrival.append(p)
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.pending = []
        self.ready = [0] * len(self.buckets)
        if not self.rebuilt:  # as DDP does after its first step: buckets in the real order
            self.rebuilt = True
            self._plan(self.arrival)


answer = OverlappedDDP
