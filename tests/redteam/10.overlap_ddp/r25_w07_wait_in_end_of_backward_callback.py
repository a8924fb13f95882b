# expect: fail copies DDP's reducer: the first hook queues an end-of-backward callback (queue_callback) that waits for every bucket and copies back, so the waits happen inside backward() and finish() waits on nothing; backward cannot return until all communication is done
# hint: queue_callback|end of backward|inside backward|(wait|waits|waited|blocks?).{0,60}(backward|callback)|not in finish|finish\(\).{0,30}(nothing|no wait|does not wait)
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
        self.finalizer_queued = False
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        if not self.finalizer_queued:  # as DDP's reducer: finalize when the engine is done
            torch.autograd.Variable._execution_engine.queue_callback(self._finalize)
            self.finalizer_queued = True
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat.div_(dist.get_world_size())
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, i))

    @torch.no_grad()
    def _finalize(self):
        for handle, flat, i in self.pending:
            handle.wait()
            bucket = self.buckets[i]
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.pending = []
        self.counts = [0] * len(self.buckets)
        self.finalizer_queued = False

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        self._finalize()  # already done at the end of backward: nothing left to wait for
