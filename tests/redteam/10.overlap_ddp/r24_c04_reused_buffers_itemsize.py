# expect: pass one flat buffer per bucket allocated in __init__ (in the parameters' dtype, sized with dtype.itemsize) and reused every step; hooks registered through the unbound Tensor method; counts reset by copying a template
# hint: 
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        ps = list(model.parameters())
        self.groups = [[]]
        acc = 0
        for p in reversed(ps):
            self.groups[-1].append(p)
            acc += p.numel() * p.dtype.itemsize
            if acc >= bucket_bytes:
                self.groups.append([])
                acc = 0
        if not self.groups[-1]:
            self.groups.pop()
        self.buffers = []
        self.slots = {}
        for g, group in enumerate(self.groups):
            dtype = group[0].dtype
            for q in group[1:]:
                dtype = torch.promote_types(dtype, q.dtype)
            self.buffers.append(torch.zeros(sum(q.numel() for q in group), dtype=dtype))
            offset = 0
            for q in group:
                self.slots[q] = (g, offset, offset + q.numel())
                offset += q.numel()
        self.template = [len(group) for group in self.groups]
        self.todo = list(self.template)
        self.pending = []
        for p in ps:
            torch.Tensor.register_post_accumulate_grad_hook(p, self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        g = self.slots[p][0]
        self.todo[g] -= 1
        if self.todo[g]:
            return
        buf = self.buffers[g]
        for q in self.groups[g]:
            _, a, b = self.slots[q]
            buf[a:b].copy_(q.grad.reshape(-1))
        buf.div_(dist.get_world_size())
        self.pending.append((g, dist.all_reduce(buf, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for g, handle in self.pending:
            handle.wait()
            buf = self.buffers[g]
            for q in self.groups[g]:
                _, a, b = self.slots[q]
                q.grad.copy_(buf[a:b].view_as(q.grad))
        self.pending = []
        self.todo = list(self.template)


answer = OverlappedDDP
