# expect: fail the buckets are filled in the order the gradients arrive in backward (the hooks' order), not in reverse order of model.parameters(); a model whose layers are registered in another order than forward runs them gets other buckets
# hint: (arriv|order (in which|that) .{0,20}(gradients|hooks)|hooks?'? (call(s|ing)? )?order|revers\w* (order )?(of )?`?model\.parameters|registration order|registered in (an)?other order|(built|split|assign\w*|decided|fixed) (the )?(buckets )?(once )?(in|at) `?(__init__|construction))
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Buckets fill as the gradients arrive: each hook adds its parameter to the open bucket."""

    def __init__(self, model, bucket_bytes):
        self.params = list(model.parameters())
        self.bucket_bytes = bucket_bytes
        self._reset()
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _reset(self):
        self.open, self.open_bytes, self.arrived = [], 0, 0
        self.handles = []  # (handle, flat, bucket)

    @torch.no_grad()
    def _launch(self):
        bucket = self.open
        flat = torch.cat([q.grad.reshape(-1) for q in bucket])
        flat /= dist.get_world_size()
        self.handles.append((dist.all_reduce(flat, async_op=True), flat, bucket))
        self.open, self.open_bytes = [], 0

    def _hook(self, p):
        self.open.append(p)
        self.open_bytes += p.numel() * p.element_size()
        self.arrived += 1
        if self.open_bytes >= self.bucket_bytes or self.arrived == len(self.params):
            self._launch()

    @torch.no_grad()
    def finish(self):
        for handle, flat, bucket in self.handles:
            handle.wait()
            for p, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                p.grad.copy_(part.view_as(p))
        self._reset()
