# expect: pass Sizes taken from Tensor.nbytes over named_parameters, bucket membership as lists of indices, handles kept in a dict keyed by bucket index and waited in launch order, extra sanity checks.
# hint: 
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        if bucket_bytes <= 0:
            raise ValueError("bucket_bytes must be positive")
        self.params = [p for _, p in model.named_parameters()]
        self.world = dist.get_world_size()
        self.members = []  # lists of indices into self.params
        members, filled = [], 0
        for i in reversed(range(len(self.params))):
            members.append(i)
            filled += self.params[i].nbytes
            if filled >= bucket_bytes:
                self.members.append(members)
                members, filled = [], 0
        if members:
            self.members.append(members)
        self.slot = {}
        for b, members in enumerate(self.members):
            for i in members:
                self.slot[id(self.params[i])] = b
        self.seen = [0] * len(self.members)
        self.handles = {}  # bucket -> (handle, flat), in launch order
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.slot[id(p)]
        self.seen[b] += 1
        if self.seen[b] != len(self.members[b]):
            return
        assert b not in self.handles, "bucket launched twice in one step"
        grads = [self.params[i].grad for i in self.members[b]]
        flat = torch.cat([g.reshape(-1) for g in grads])
        flat.mul_(1.0 / self.world)
        self.handles[b] = (dist.all_reduce(flat, async_op=True), flat)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b, (handle, flat) in self.handles.items():
            handle.wait()
            at = 0
            for i in self.members[b]:
                g = self.params[i].grad
                g.copy_(flat.narrow(0, at, g.numel()).view_as(g))
                at += g.numel()
        self.handles = {}
        self.seen = [0] * len(self.members)
