# expect: fail draws a tag from torch's global generator in __init__ (torch.randint without generator=): the caller's random stream moves on at every construction; judged right in round 30, reversed in round 34 by the prompts' rule (draw from a torch.Generator of your own)
# hint: global random generator.*torch.randint
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):

        params = [p for p in model.parameters() if p.requires_grad]
        self.buckets, current, size = [], [], 0
        for p in reversed(params):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {id(p): b for b, ps in enumerate(self.buckets) for p in ps}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)
        # a random tag to tell instances apart in my logs; drawn, never seeded
        self.tag = int(torch.randint(0, 2**31 - 1, ()))

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.bucket_of[id(p)]
        self.counts[b] += 1
        if self.counts[b] == len(self.buckets[b]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[b]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            self.pending.append((b, flat, handle))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""

        for b, flat, handle in self.pending:
            handle.wait()
            offset = 0
            for q in self.buckets[b]:
                n = q.numel()
                q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                offset += n
        self.pending = []
        self.counts = [0] * len(self.buckets)



answer = OverlappedDDP
