# expect: pass deques of pending actions, sweeps from the last stage to the first, activations and gradients passed in dicts
# hint:
# name: one_f_one_b_step
from collections import deque

import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    n_stages = len(stages)
    m = min(n_micro, len(x))
    xs = torch.tensor_split(x, m)
    ys = torch.tensor_split(y, m)
    queues = []
    for k in range(n_stages):
        warm = min(n_stages - k - 1, m)
        q = deque(("F", i) for i in range(warm))
        for i in range(warm, m):
            q.append(("F", i))
            q.append(("B", i - warm))
        q.extend(("B", i) for i in range(m - warm, m))
        queues.append(q)
    sent = {}  # (k, i): stage k's output of micro-batch i, for stage k + 1
    received = {}  # (k, i): stage k's input leaf, whose .grad goes back to stage k - 1
    pending = {}  # (k, i): what stage k's backward of i starts from
    loss_sum = None
    while any(queues):
        progressed = False
        for k in reversed(range(n_stages)):
            if not queues[k]:
                continue
            kind, i = queues[k][0]
            if kind == "F":
                if k > 0 and (k - 1, i) not in sent:
                    continue
                inp = xs[i] if k == 0 else sent.pop((k - 1, i)).detach().requires_grad_()
                out = stages[k](inp)
                received[k, i] = inp
                if k == n_stages - 1:
                    out = loss_fn(out, ys[i]) * (xs[i].shape[0] / len(x))
                    loss_sum = out.detach() if loss_sum is None else loss_sum + out.detach()
                else:
                    sent[k, i] = out
                pending[k, i] = out
            else:
                if k < n_stages - 1:
                    leaf = received.get((k + 1, i))
                    if leaf is None or leaf.grad is None or (k + 1, i) in pending:
                        continue
                    del received[k + 1, i]
                    pending.pop((k, i)).backward(leaf.grad)
                else:
                    pending.pop((k, i)).backward()
            queues[k].popleft()
            progressed = True
        assert progressed, "stuck: no stage can move"
    return loss_sum
