# expect: fail a ready bucket is deferred until every earlier-indexed bucket has been launched (launch strictly in bucket index order), so on the reordered model a bucket is launched from another bucket's hook, not from its own last gradient
# hint: launch|last gradient|own|order
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets = []
        cur, size = [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.next_to_launch = 0
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        # keep the same launch order on every rank: bucket 0, 1, 2, ...
        while (self.next_to_launch < len(self.buckets)
               and self.counts[self.next_to_launch] == len(self.buckets[self.next_to_launch])):
            j = self.next_to_launch
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[j]])
            flat /= dist.get_world_size()
            self.pending.append((j, flat, dist.all_reduce(flat, async_op=True)))
            self.next_to_launch += 1

    def finish(self):
        for j, flat, h in self.pending:
            h.wait()
            off = 0
            for p in self.buckets[j]:
                p.grad.copy_(flat[off:off + p.numel()].view_as(p))
                off += p.numel()
        self.pending = []
        self.counts = [0] * len(self.buckets)
        self.next_to_launch = 0


answer = OverlappedDDP
