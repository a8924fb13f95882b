# expect: fail flattens each bucket in the order its gradients arrived but copies the averages back at offsets of the planned (reverse-parameter) order: when backward's order differs, slices land in the wrong p.grad
# hint: average|mismatch|order|shape|wrong param|offset
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.index = {id(p): b for b, ps in enumerate(self.buckets) for p in ps}
        self.arrived = [[] for _ in self.buckets]  # gradients, as they come
        self.pending = []
        for ps in self.buckets:
            for p in ps:
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.index[id(p)]
        self.arrived[b].append(p.grad)
        if len(self.arrived[b]) == len(self.buckets[b]):
            flat = torch.cat([g.reshape(-1) for g in self.arrived[b]])
            flat.div_(dist.get_world_size())
            self.pending.append((b, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b, flat, handle in self.pending:
            handle.wait()
            chunks = flat.split([q.numel() for q in self.buckets[b]])
            for q, chunk in zip(self.buckets[b], chunks):
                q.grad.copy_(chunk.view_as(q))
        self.pending = []
        self.arrived = [[] for _ in self.buckets]


answer = OverlappedDDP
