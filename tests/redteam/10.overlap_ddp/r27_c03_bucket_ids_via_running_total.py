# expect: pass bucket ids computed in one pass (a running byte total that starts a new id after it reaches the cap), ready gradients tracked as sets per bucket, a deque of launched buckets drained with handle.wait() in finish()
# hint:
# name: OverlappedDDP
from collections import deque

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.bucket_id, members = {}, []
        filled = bucket_bytes  # so that the first parameter opens bucket 0
        for p in reversed(list(model.parameters())):
            if filled >= bucket_bytes:
                members.append([])
                filled = 0
            members[-1].append(p)
            self.bucket_id[p] = len(members) - 1
            filled += p.element_size() * p.numel()
        self.members = members
        self.ready = [set() for _ in members]
        self.launched = deque()
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.bucket_id[p]
        self.ready[b].add(p)
        if len(self.ready[b]) == len(self.members[b]):
            with torch.no_grad():
                flat = torch.cat([q.grad.flatten() for q in self.members[b]])
                flat.mul_(1.0 / dist.get_world_size())
                self.launched.append((b, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        with torch.no_grad():
            while self.launched:
                b, flat, handle = self.launched.popleft()
                handle.wait()
                pieces = flat.split([q.numel() for q in self.members[b]])
                torch._foreach_copy_([q.grad for q in self.members[b]], [x.view_as(q) for x, q in zip(pieces, self.members[b])])
        for s in self.ready:
            s.clear()
