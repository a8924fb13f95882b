# expect: pass dict-of-bucket-index state, pre-close rule (no bucket exceeds the cap), average taken in finish() after the wait
# hint:
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.bucket_bytes = bucket_bytes
        self.buckets = []  # lists of parameters, in reverse order of model.parameters()
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            nbytes = p.numel() * p.element_size()
            # close the bucket just before p would take it past the cap
            if current and size + nbytes > bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
            current.append(p)
            size += nbytes
        if current:
            self.buckets.append(current)
        self.where = {}
        for b, params in enumerate(self.buckets):
            for p in params:
                self.where[p] = b
        self.ready = {b: 0 for b in range(len(self.buckets))}
        self.sent = {}  # bucket index -> (flat tensor, work handle)
        for p in self.where:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.where[p]
        self.ready[b] += 1
        if self.ready[b] == len(self.buckets[b]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[b]])
            self.sent[b] = (flat, dist.all_reduce(flat, async_op=True))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        world = dist.get_world_size()
        for b in sorted(self.sent):
            flat, handle = self.sent[b]
            handle.wait()
            flat.div_(world)
            offset = 0
            for q in self.buckets[b]:
                n = q.numel()
                q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                offset += n
        self.sent = {}
        self.ready = {b: 0 for b in self.ready}


answer = OverlappedDDP
