# expect: pass closes a bucket just before a parameter would take it past the cap (allowed by the prompt), divides after the wait with torch._foreach_div_, copies back with torch._foreach_copy_
# hint: 
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        cur, cur_bytes = [], 0
        for p in reversed(list(model.parameters())):
            b = p.numel() * p.element_size()
            if cur and cur_bytes + b > bucket_bytes:  # p would overflow it: close it first
                self.buckets.append(cur)
                cur, cur_bytes = [], 0
            cur.append(p)
            cur_bytes += b
        if cur:
            self.buckets.append(cur)
        self.owner = {}
        for i, bucket in enumerate(self.buckets):
            for p in bucket:
                self.owner[id(p)] = i
                p.register_post_accumulate_grad_hook(self._hook)
        self.missing = [len(b) for b in self.buckets]
        self.sent = []

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.owner[id(p)]
        self.missing[i] -= 1
        if self.missing[i] == 0:
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            self.sent.append((i, flat, dist.all_reduce(flat, async_op=True)))  # a sum for now

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.sent:
            handle.wait()
            grads = [q.grad for q in self.buckets[i]]
            parts = [t.view_as(g) for t, g in zip(flat.split([g.numel() for g in grads]), grads)]
            torch._foreach_copy_(grads, parts)
            torch._foreach_div_(grads, dist.get_world_size())
        self.sent = []
        self.missing = [len(b) for b in self.buckets]


answer = OverlappedDDP
