# expect: pass
# hint: 
import functools

import torch
import torch.distributed as dist


class answer:
    """One hook per parameter made with functools.partial, which knows its bucket."""

    def __init__(self, model, bucket_bytes):
        self.world = dist.get_world_size()
        self.buckets = [[]]
        held = 0
        for p in reversed(list(model.parameters())):
            if held >= bucket_bytes:  # the previous bucket reached the cap: open a new one
                self.buckets.append([])
                held = 0
            self.buckets[-1].append(p)
            held += p.nelement() * p.element_size()
        self.left = [len(b) for b in self.buckets]
        self.handles, self.flats = {}, {}
        for b, bucket in enumerate(self.buckets):
            for p in bucket:
                p.register_post_accumulate_grad_hook(functools.partial(self._hook_in, b))

    def _hook_in(self, b, p):
        self.left[b] -= 1
        if self.left[b] == 0:
            self._launch(b)

    def _hook(self, p):  # what the stub named; the partials above call _launch directly
        for b, bucket in enumerate(self.buckets):
            if any(q is p for q in bucket):
                return self._hook_in(b, p)

    def _launch(self, b):
        flat = torch.cat([q.grad.detach().reshape(-1) for q in self.buckets[b]]) / self.world
        self.flats[b] = flat
        self.handles[b] = dist.all_reduce(flat, async_op=True)

    def finish(self):
        for b in sorted(self.handles):
            self.handles[b].wait()
            torch.nn.utils.vector_to_parameters(self.flats[b], [q.grad for q in self.buckets[b]])
        self.handles.clear()
        self.flats.clear()
        self.left = [len(b) for b in self.buckets]
