# expect: pass countdown counters reset at launch, world size read once, handles waited in reverse order, itertools
# hint:
import itertools

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.world = dist.get_world_size()
        rev = list(reversed(list(model.parameters())))
        nbytes = [p.dtype.itemsize * p.numel() for p in rev]
        self.buckets = []
        start = 0
        running = 0
        for k, (p, b) in enumerate(zip(rev, nbytes)):
            running += b
            if running >= bucket_bytes or k == len(rev) - 1:
                self.buckets.append(rev[start:k + 1])
                start, running = k + 1, 0
        self.index = {}
        for i, bucket in enumerate(self.buckets):
            self.index.update(dict.fromkeys(bucket, i))
        self.remaining = [len(b) for b in self.buckets]
        self.handles = []
        self.flats = []
        self.launched = []
        for p in itertools.chain.from_iterable(self.buckets):
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.index[p]
        self.remaining[i] -= 1
        if self.remaining[i] == 0:
            self.remaining[i] = len(self.buckets[i])  # ready for the next step
            flat = torch.cat([g.grad.reshape(-1) for g in self.buckets[i]]).div(self.world)
            self.handles.append(dist.all_reduce(flat, async_op=True))
            self.flats.append(flat)
            self.launched.append(i)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, i in reversed(list(zip(self.handles, self.flats, self.launched))):
            handle.wait()
            sizes = [q.numel() for q in self.buckets[i]]
            for q, part in zip(self.buckets[i], torch.split(flat, sizes)):
                q.grad.copy_(part.view(q.grad.shape))
        self.handles, self.flats, self.launched = [], [], []
        self.remaining = [len(b) for b in self.buckets]


answer = OverlappedDDP
