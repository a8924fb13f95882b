# expect: fail launches from each layer's register_full_backward_hook instead of the parameters' post-accumulate-grad hooks; a module hook can fire before AccumulateGrad has written that layer's p.grad (the first layer's, whose input needs no gradient, always does), so its bucket sends None-turned-zeros or stale gradients
# hint: (module|full).{0,30}(backward )?hook|register_full_backward_hook|before .{0,40}(accumulat|p\.grad|grad (is|are) (written|ready))|post.accumulate|first layer|stale|zeros?
# name: OverlappedDDP
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
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        # one hook per layer: a layer's backward is where its weight and bias gradients come from
        for module in model.modules():
            if any(True for _ in module.parameters(recurse=False)):
                module.register_full_backward_hook(self._module_hook)

    def _module_hook(self, module, grad_input, grad_output):
        for p in module.parameters(recurse=False):
            self._hook(p)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            bucket = self.buckets[i]
            flat = torch.cat(
                [(q.grad if q.grad is not None else torch.zeros_like(q)).reshape(-1) for q in bucket]
            )
            flat.div_(dist.get_world_size())
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, i))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, i in self.pending:
            handle.wait()
            bucket = self.buckets[i]
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                if q.grad is None:
                    q.grad = part.view_as(q).clone()
                else:
                    q.grad.copy_(part.view_as(q))
        self.pending = []
        self.counts = [0] * len(self.buckets)
