# expect: fail copies DDP's rebuild: the first step uses reverse-parameter buckets, then finish() re-plans them in the order the gradients arrived, so from step 2 on the buckets follow backward's order, not the rule
# hint: order|arriv|reverse|rebuil|rule|bucket
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.bucket_bytes = bucket_bytes
        self.params = list(model.parameters())
        self._plan(reversed(self.params))
        self.rebuilt = False
        self.arrival = []
        self.pending = []
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _plan(self, order):
        self.buckets, current, size = [], [], 0
        for p in order:
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= self.bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.index = {id(p): b for b, ps in enumerate(self.buckets) for p in ps}
        self.counts = [0] * len(self.buckets)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        if not self.rebuilt:
            self.arrival.append(p)
        b = self.index[id(p)]
        self.counts[b] += 1
        if self.counts[b] == len(self.buckets[b]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[b]])
            flat.div_(dist.get_world_size())
            self.pending.append((b, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b, flat, handle in self.pending:
            handle.wait()
            offset = 0
            for q in self.buckets[b]:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))
                offset += q.numel()
        self.pending = []
        self.counts = [0] * len(self.buckets)
        if not self.rebuilt:  # as DDP: after the first step, buckets in the order grads really arrived
            self._plan(self.arrival)
            self.rebuilt = True
            self.arrival = []


answer = OverlappedDDP
