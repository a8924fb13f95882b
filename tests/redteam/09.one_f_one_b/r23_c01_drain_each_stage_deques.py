# expect: pass orders as deques of (kind, i); the loop visits the stages first to last and lets each run every action it can before moving on (not one per visit), dependencies read from sets of done actions
# hint: 
from collections import deque

import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S = len(stages)
    M = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    queues = []
    for k in range(S):
        warm = min(S - k - 1, M)
        q = deque(("F", i) for i in range(warm))
        for i in range(M - warm):
            q.extend([("F", warm + i), ("B", i)])
        q.extend(("B", i) for i in range(M - warm, M))
        queues.append(q)
    forwarded = [set() for _ in range(S)]
    backwarded = [set() for _ in range(S)]
    h_in, h_out, losses = {}, {}, []

    def ready(k, kind, i):
        if kind == "F":
            return k == 0 or i in forwarded[k - 1]
        return k == S - 1 or i in backwarded[k + 1]

    while any(queues):
        for k in range(S):
            while queues[k] and ready(k, *queues[k][0]):
                kind, i = queues[k].popleft()
                if kind == "F":
                    a = xs[i] if k == 0 else h_out[k - 1, i].detach().requires_grad_()
                    b = stages[k](a)
                    if k == S - 1:
                        b = loss_fn(b, ys[i]) * (xs[i].shape[0] / x.shape[0])
                    h_in[k, i], h_out[k, i] = a, b
                    forwarded[k].add(i)
                else:
                    b = h_out.pop((k, i))
                    if k == S - 1:
                        b.backward()
                        losses.append(b.detach())
                    else:
                        b.backward(h_in.pop((k + 1, i)).grad)
                    backwarded[k].add(i)
    return torch.stack(losses).sum()


answer = one_f_one_b_step
