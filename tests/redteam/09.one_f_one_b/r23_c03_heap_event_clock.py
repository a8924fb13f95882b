# expect: pass an event simulation: a heap of (ready time, stage) picks which stage acts next, each action one tick after what it needs, orders written as strings; the graph cut with torch.autograd.backward(out, grad_tensors=...)
# hint: 
import heapq

import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    kinds = []
    for k in range(S):
        w = min(S - k - 1, M)
        kinds.append("F" * w + "FB" * (M - w) + "B" * w)
    nxt = [[0, 0] for _ in range(S)]  # next forward, next backward micro-batch of each stage
    finished = {}  # (kind, stage, i) -> tick it finished
    inputs, outputs, total = {}, {}, 0
    heap = [(0, k) for k in range(S)]
    step = [0] * S
    while heap:
        t, k = heapq.heappop(heap)
        kind = kinds[k][step[k]]
        i = nxt[k][kind == "B"]
        need = ("F", k - 1, i) if kind == "F" else ("B", k + 1, i)
        needs = (kind == "F" and k > 0) or (kind == "B" and k < S - 1)
        if needs and need not in finished:
            heapq.heappush(heap, (t + 1, k))  # not yet: look again a tick later
            continue
        t = max(t, finished.get(need, -1) + 1) if needs else t
        if kind == "F":
            a = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
            b = stages[k](a)
            if k == S - 1:
                b = loss_fn(b, ys[i]) * (len(xs[i]) / len(x))
            inputs[k, i], outputs[k, i] = a, b
        else:
            b = outputs.pop((k, i))
            if k == S - 1:
                torch.autograd.backward(b)
                total = total + b.detach()
            else:
                torch.autograd.backward(b, grad_tensors=inputs.pop((k + 1, i)).grad)
        finished[kind, k, i] = t
        nxt[k][kind == "B"] += 1
        step[k] += 1
        if step[k] < len(kinds[k]):
            heapq.heappush(heap, (t + 1, k))
    return total


answer = one_f_one_b_step
