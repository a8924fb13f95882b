# expect: fail launches buckets strictly in bucket order, as DDP's reducer does: a bucket whose gradients are all ready waits for the buckets before it, so it is sent from another bucket's hook, not from its own last gradient's
# hint: own|last gradient|in order|order|delay|held back|another bucket|hook of
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
        self.index = {id(p): b for b, ps in enumerate(self.buckets) for p in ps}
        self.counts = [0] * len(self.buckets)
        self.next_bucket = 0  # buckets go out in order (section 10.1, step 3)
        self.pending = []
        for ps in self.buckets:
            for p in ps:
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        self.counts[self.index[id(p)]] += 1
        while (
            self.next_bucket < len(self.buckets)
            and self.counts[self.next_bucket] == len(self.buckets[self.next_bucket])
        ):
            b = self.next_bucket
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[b]])
            flat.div_(dist.get_world_size())
            self.pending.append((b, flat, dist.all_reduce(flat, async_op=True)))
            self.next_bucket += 1

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
        self.next_bucket = 0


answer = OverlappedDDP
