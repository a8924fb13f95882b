# expect: pass hooks hold only a weak reference to the OverlappedDDP (a dropped instance's hooks do nothing); launched buckets in a dict keyed by bucket index, drained by finish() in index order with handle.wait(); counts kept as remaining sets of indices, rebuilt in finish()
# hint:
# name: OverlappedDDP
import weakref

import torch
import torch.distributed as dist


def _weak_hook(obj):
    ref = weakref.ref(obj)

    def hook(p):
        target = ref()
        if target is not None:
            target._hook(p)

    return hook


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        order = list(model.parameters())[::-1]
        self.buckets, start, acc = [], 0, 0
        for k, p in enumerate(order):
            acc += p.numel() * p.element_size()
            if acc >= bucket_bytes or k == len(order) - 1:
                self.buckets.append(order[start : k + 1])
                start, acc = k + 1, 0
        self.index = {id(p): (b, j) for b, params in enumerate(self.buckets) for j, p in enumerate(params)}
        self._reset()
        hook = _weak_hook(self)
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(hook)

    def _reset(self):
        self.remaining = [set(range(len(b))) for b in self.buckets]
        self.launched = {}

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b, j = self.index[id(p)]
        self.remaining[b].discard(j)
        if not self.remaining[b] and b not in self.launched:
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[b]])
            flat.div_(dist.get_world_size())
            self.launched[b] = (dist.all_reduce(flat, async_op=True), flat)

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b in sorted(self.launched):
            handle, flat = self.launched[b]
            handle.wait()
            params = self.buckets[b]
            for q, part in zip(params, torch.split(flat, [q.numel() for q in params])):
                q.grad.copy_(part.reshape(q.shape))
        self._reset()
