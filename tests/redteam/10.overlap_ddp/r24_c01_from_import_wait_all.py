# expect: pass names imported from torch.distributed and torch.futures; waits through torch.futures.wait_all on the handles' futures; divides in finish()
# hint: 
from itertools import accumulate

import torch
from torch.distributed import all_reduce, get_world_size
from torch.futures import wait_all


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.plan = []  # list of lists of parameters, in reverse order of model.parameters()
        open_, filled = [], 0
        for p in reversed(list(model.parameters())):
            open_.append(p)
            filled += p.numel() * p.element_size()
            if filled >= bucket_bytes:
                self.plan.append(open_)
                open_, filled = [], 0
        if open_:
            self.plan.append(open_)
        self.home = {p: b for b, members in enumerate(self.plan) for p in members}
        self.missing = [len(m) for m in self.plan]
        self.sent = []  # (bucket, flat, work)
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.home[p]
        self.missing[b] -= 1
        if self.missing[b] == 0:
            flat = torch.cat([q.grad.reshape(-1) for q in self.plan[b]])
            self.sent.append((b, flat, all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        wait_all([work.get_future() for _, _, work in self.sent])
        n = get_world_size()
        for b, flat, _ in self.sent:
            flat.div_(n)
            members = self.plan[b]
            ends = list(accumulate(q.numel() for q in members))
            for q, start, end in zip(members, [0] + ends[:-1], ends):
                q.grad.copy_(flat[start:end].view_as(q.grad))
        self.sent = []
        self.missing = [len(m) for m in self.plan]


answer = OverlappedDDP
