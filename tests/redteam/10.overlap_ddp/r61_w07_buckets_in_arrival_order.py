# expect: fail fills the buckets in the order the gradients arrive during the first backward (as DDP's rebuild does) instead of reverse order of model.parameters(), so a model whose layers are registered in another order than forward gets other buckets
# hint: revers|order|arriv|parameters\(\)|registration|plan
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.params = [p for p in model.parameters() if p.requires_grad]
        self.bucket_bytes = bucket_bytes
        self.buckets = None  # planned during the first backward, in the order gradients arrive
        self._current, self._size, self._planned = [], 0, []
        self.bucket_of = {}
        self.counts = []
        self.handles = []
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _launch(self, i):
        flat = torch.cat([q.grad.reshape(-1) for q in self._bucket_list()[i]])
        flat.div_(dist.get_world_size())
        self.handles.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def _bucket_list(self):
        return self.buckets if self.buckets is not None else self._planned

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        if self.buckets is None:  # first step: the gradients' real order decides
            self._current.append(p)
            self._size += p.numel() * p.element_size()
            last = len(self.bucket_of) + 1 == len(self.params)
            self.bucket_of[p] = len(self._planned)
            if self._size >= self.bucket_bytes or last:
                self._planned.append(self._current)
                self._current, self._size = [], 0
                self._launch(len(self._planned) - 1)
            return
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            self._launch(i)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        buckets = self._bucket_list()
        for i, flat, handle in self.handles:
            handle.wait()
            offset = 0
            for q in buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[offset:offset + n].view_as(q.grad))
                offset += n
        self.handles = []
        if self.buckets is None:
            self.buckets = self._planned
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
