# expect: fail when a bucket is complete, all-reduces each of its gradients in place, one async all-reduce per parameter, instead of one flat tensor per bucket
# hint: flat|torch\.cat|one (tensor|all.?reduce|collective) (per|for each|a) bucket|per param|each (param|gradient)|not (a|the) bucket|(many|more|too many|extra) (all.?reduces|collectives)|bucket.{0,40}(size|numel|shape)
# Wrong: the prompt asks to flatten the bucket into one tensor and launch one all-reduce for it;
# here the values are right but each parameter pays an all-reduce's fixed cost (section 10.5), and
# what is sent is not the buckets.
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.handles = []
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            world = dist.get_world_size()
            for q in self.buckets[i]:  # in place: nothing to copy back afterwards
                q.grad.div_(world)
                self.handles.append(dist.all_reduce(q.grad, async_op=True))

    def finish(self):
        for handle in self.handles:
            handle.wait()
        self.handles = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
