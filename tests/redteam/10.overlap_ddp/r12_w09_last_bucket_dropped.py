# expect: fail the last, smaller bucket (the parameters left over when the walk ends below the cap) is never appended, so the first layers' gradients are never all-reduced and stay local
# hint: (last (\w+ )?bucket.{0,40}(never|not|missing|dropp|lost|left|forg|append|smaller)|remain|left.?over|partial|trailing|smaller bucket|every param|all (the )?param|some param|not (all|every)|missing|never (all.?reduced|averaged|sent)|not averaged|first layer'?s? (gradients? )?(are |were )?(not|never))
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets, bucket, size = [], [], 0
        for p in reversed(list(model.parameters())):
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
        self.index = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.handles = []
        for p in self.index:
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        i = self.index[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.handles.append((dist.all_reduce(flat, async_op=True), flat, i))

    @torch.no_grad()
    def finish(self):
        for handle, flat, i in self.handles:
            handle.wait()
            bucket = self.buckets[i]
            for p, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                p.grad.copy_(part.view_as(p))
        self.counts = [0] * len(self.buckets)
        self.handles = []
