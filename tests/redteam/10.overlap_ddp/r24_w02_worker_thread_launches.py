# expect: fail the hook hands the bucket to a worker thread (started in __init__) that flattens and launches the all-reduce, so the launch is not made from the hook and may come after backward returned
# hint: thread|worker|queue|not (launched )?(from|in|inside) (the|its|their) (own )?(last )?hook|after backward
import queue
import threading

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, cur, size = [], [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.where = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.launched = []
        self.todo = queue.Queue()
        # the flattening and the launch leave autograd's thread: backward never waits for them
        threading.Thread(target=self._sender, daemon=True).start()
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _sender(self):
        while True:
            i = self.todo.get()
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.launched.append((i, flat, dist.all_reduce(flat, async_op=True)))
            self.todo.task_done()

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.where[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            self.todo.put(i)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        self.todo.join()  # every bucket handed over has been launched
        for i, flat, handle in self.launched:
            handle.wait()
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.launched = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
