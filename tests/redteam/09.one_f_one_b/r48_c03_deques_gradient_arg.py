# expect: pass warm-up written as min(S-k-1, M-1) (the same order), deques, torch.autograd.backward with grad_tensors, loss scaled via the gradient argument
# hint:
from collections import deque

import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    queues = []
    for k in range(S):
        w = min(S - k - 1, M - 1)  # when M <= S - k - 1, F..F B..B either way
        q = deque(("F", i) for i in range(w))
        for i in range(w, M):
            q.extend([("F", i), ("B", i - w)])
        q.extend(("B", i) for i in range(M - w, M))
        queues.append(q)
    fwd_done = [set() for _ in range(S)]
    bwd_done = [set() for _ in range(S)]
    inp, out = [dict() for _ in range(S)], [dict() for _ in range(S)]
    total = torch.zeros(())
    while any(queues):
        for k, q in enumerate(queues):
            if not q:
                continue
            phase, i = q[0]
            if phase == "F" and (k == 0 or i in fwd_done[k - 1]):
                h = xs[i] if k == 0 else out[k - 1][i].detach().requires_grad_()
                inp[k][i] = h
                out[k][i] = stages[k](h)
                fwd_done[k].add(i)
            elif phase == "B" and (k == S - 1 or i in bwd_done[k + 1]):
                o = out[k].pop(i)
                if k == S - 1:
                    share = len(ys[i]) / len(y)
                    loss = loss_fn(o, ys[i])
                    total += share * loss.detach()
                    loss.backward(torch.tensor(share, dtype=loss.dtype))
                else:
                    torch.autograd.backward(o, grad_tensors=inp[k + 1].pop(i).grad)
                bwd_done[k].add(i)
            else:
                continue
            q.popleft()
    return total


answer = one_f_one_b_step
