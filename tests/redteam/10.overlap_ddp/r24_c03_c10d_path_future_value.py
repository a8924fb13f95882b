# expect: pass all_reduce called through torch.distributed.distributed_c10d; finish takes the reduced tensor from handle.get_future().wait()
# hint: 
import torch
from torch.distributed import distributed_c10d as c10d


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.members = []
        start = 0
        order = params[::-1]
        while start < len(order):
            stop, total = start, 0
            while stop < len(order) and total < bucket_bytes:
                total += order[stop].numel() * order[stop].element_size()
                stop += 1
            self.members.append(order[start:stop])
            start = stop
        self.index = {id(p): k for k, ps in enumerate(self.members) for p in ps}
        self.arrived = {}
        self.works = {}
        self.world = c10d.get_world_size()
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        k = self.index[id(p)]
        self.arrived[k] = self.arrived.get(k, 0) + 1
        if self.arrived[k] == len(self.members[k]):
            flat = torch.cat([q.grad.detach().reshape(-1) for q in self.members[k]]) / self.world
            self.works[k] = c10d.all_reduce(flat, op=c10d.ReduceOp.SUM, async_op=True)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for k, work in self.works.items():
            (reduced,) = work.get_future().wait()
            offset = 0
            for q in self.members[k]:
                n = q.numel()
                q.grad.copy_(reduced[offset:offset + n].view(q.grad.shape))
                offset += n
        self.works = {}
        self.arrived = {}


answer = OverlappedDDP
