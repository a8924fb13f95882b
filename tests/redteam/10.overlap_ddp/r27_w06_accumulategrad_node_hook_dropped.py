# expect: fail registers each hook on the parameter's AccumulateGrad node (DDP's old trick, p.view_as(p).grad_fn.next_functions[0][0]) without keeping a reference to the node: the node is freed when __init__ returns, the next forward makes a new one, so the hooks never run, nothing is launched and the gradients stay local
# hint: accumulategrad|grad_fn|next_functions|(garbage|freed|collected|kept alive|keep.{0,20}(ref|alive))|hooks? (never|not|did not|didn't) (fire|run|call)|never (launch|called)|register_post_accumulate_grad_hook
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
        for p in model.parameters():
            # the node that writes p.grad: its post-hook runs once p.grad is accumulated (works on
            # every torch, as DDP's reducer did before register_post_accumulate_grad_hook existed)
            acc = p.view_as(p).grad_fn.next_functions[0][0]
            acc.register_hook(lambda *_, p=p: self._hook(p))

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, self.buckets[i]))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, bucket in self.pending:
            handle.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.pending = []
        self.counts = [0] * len(self.buckets)
