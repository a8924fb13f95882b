# expect: pass buckets planned with functools.reduce under the no-bucket-exceeds-the-cap rule; each parameter's hook is a callable _Countdown object shared by its bucket; aliased imports from torch.distributed; divides after the wait in finish()
# hint:
# name: OverlappedDDP
from functools import reduce

import torch
from torch.distributed import all_reduce as allreduce
from torch.distributed import get_world_size


def _nbytes(p):
    return p.numel() * p.element_size()


def _add(buckets, p, cap):
    """Close the open bucket before p when p would take it past cap."""
    last = buckets[-1]
    if last and sum(map(_nbytes, last)) + _nbytes(p) > cap:
        buckets.append([p])
    else:
        last.append(p)
    return buckets


class _Countdown:
    """The hook of every parameter of one bucket."""

    def __init__(self, owner, params):
        self.owner, self.params, self.left = owner, params, len(params)

    @torch.no_grad()
    def __call__(self, p):
        self.left -= 1
        if self.left == 0:
            flat = torch.cat([q.grad.reshape(-1) for q in self.params])
            self.owner.in_flight.append((allreduce(flat, async_op=True), flat, self))


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())[::-1]
        plan = reduce(lambda acc, p: _add(acc, p, bucket_bytes), params, [[]])
        self.countdowns = [_Countdown(self, b) for b in plan if b]
        self.in_flight = []
        for c in self.countdowns:
            for p in c.params:
                p.register_post_accumulate_grad_hook(c)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient (hooks are the _Countdowns)."""
        for c in self.countdowns:
            if any(q is p for q in c.params):
                return c(p)

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        n = get_world_size()
        for work, flat, c in self.in_flight:
            work.wait()
            flat.div_(n)
            offset = 0
            for q in c.params:
                q.grad.copy_(flat.narrow(0, offset, q.numel()).view_as(q))
                offset += q.numel()
            c.left = len(c.params)
        self.in_flight = []
