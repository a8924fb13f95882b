# expect: fail walks the parameters in reverse order of their sorted names (named_parameters sorted by name), not in reverse order of model.parameters(): bias/weight and layer names sort differently from registration order, so the buckets hold other parameters
# hint: reverse|order|model\.parameters|bucket|rule
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        # a stable, reproducible order on every rank: by name, last layer first
        named = sorted(model.named_parameters(), key=lambda item: item[0], reverse=True)
        self.buckets, current, size = [], [], 0
        for _, p in named:
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.index = {id(p): b for b, ps in enumerate(self.buckets) for p in ps}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for ps in self.buckets:
            for p in ps:
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
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


answer = OverlappedDDP
