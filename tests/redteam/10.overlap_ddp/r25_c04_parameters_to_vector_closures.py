# expect: pass each bucket flattened with torch.nn.utils.parameters_to_vector over its grads and written back with vector_to_parameters (which rebinds each grad's .data to a slice of the averaged vector); hooks are closures made by a factory; from-import of all_reduce
# hint:
# name: OverlappedDDP
import torch
from torch.distributed import all_reduce, get_world_size
from torch.nn.utils import parameters_to_vector, vector_to_parameters


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, current, size = [], [], 0
        for p in reversed([*model.parameters()]):
            current.append(p)
            size += p.element_size() * p.numel()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.counts = [0] * len(self.buckets)
        self.works = []
        for i, bucket in enumerate(self.buckets):
            for p in bucket:
                p.register_post_accumulate_grad_hook(self._make_hook(i))

    def _make_hook(self, i):
        return lambda p: self._hook(p, i)

    @torch.no_grad()
    def _hook(self, p, i=None):
        """Autograd calls this once p.grad holds this step's gradient."""
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            vec = parameters_to_vector([q.grad for q in self.buckets[i]])
            vec.div_(get_world_size())
            self.works.append((all_reduce(vec, async_op=True), vec, i))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for work, vec, i in self.works:
            work.wait()
            vector_to_parameters(vec, [q.grad for q in self.buckets[i]])
        self.works.clear()
        self.counts = [0] * len(self.buckets)
