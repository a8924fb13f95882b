# expect: pass each bucket is a callable object used as the hook; the launch is a functools.partial of an aliased all_reduce; closes before the cap would be exceeded
# hint: 
import functools

import torch
import torch.distributed as tdist

launch = functools.partial(tdist.all_reduce, op=tdist.ReduceOp.SUM, async_op=True)


class _Bucket:
    """A bucket of parameters; calling it with a parameter counts that parameter's gradient."""

    def __init__(self, params, owner):
        self.params = params
        self.owner = owner
        self.left = len(params)

    def __call__(self, p):
        self.left -= 1
        if self.left == 0:
            flat = torch.cat([q.grad.reshape(-1) for q in self.params])
            flat.div_(tdist.get_world_size())
            self.owner.inflight.append((self, flat, launch(flat)))

    def reset(self):
        self.left = len(self.params)


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.inflight = []
        self.buckets = []
        group, used = [], 0
        for p in reversed(list(model.parameters())):
            size = p.numel() * p.element_size()
            if group and used + size > bucket_bytes:  # close before p would take it past the cap
                self.buckets.append(_Bucket(group, self))
                group, used = [], 0
            group.append(p)
            used += size
        if group:
            self.buckets.append(_Bucket(group, self))
        self.bucket_of = {}
        for bucket in self.buckets:
            for p in bucket.params:
                self.bucket_of[p] = bucket
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        self.bucket_of[p](p)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for bucket, flat, handle in self.inflight:
            handle.wait()
            pieces = flat.split([q.numel() for q in bucket.params])
            for q, piece in zip(bucket.params, pieces):
                q.grad.copy_(piece.reshape(q.grad.shape))
        self.inflight.clear()
        for bucket in self.buckets:
            bucket.reset()


answer = OverlappedDDP
