# expect: fail the hook only queues an autograd end-of-backward callback, so every bucket is launched after the last gradient, not from the hook of its own last gradient: no overlap
# hint: queue_callback|end of backward|after (the )?(whole )?backward|not (launched )?(from|in|inside) (the|its|their) (own )?(last )?hook|launch(ed)? (late|after)|overlap
import torch
import torch.distributed as dist
from torch.autograd import Variable


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, cur, size = [], [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.where = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.launched = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _launch(self, i):
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
        flat /= dist.get_world_size()
        self.launched.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.where[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            # keep the hook itself cheap: let the autograd engine launch it, as DDP finalizes
            Variable._execution_engine.queue_callback(lambda: self._launch(i))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.launched:
            handle.wait()
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.launched = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
