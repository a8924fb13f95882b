# expect: pass orders written as strings like "FFBFB..", and a dependency graph run with a ready queue (Kahn's algorithm), any topological order keeping each stage's order and what each action needs
# hint: 
# name: one_f_one_b_step
from collections import deque

import torch


def _order_string(k, n_stages, m):
    warm = min(n_stages - k - 1, m)
    return "F" * warm + "FB" * (m - warm) + "B" * warm


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S = len(stages)
    M = min(n_micro, x.shape[0])
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    actions = {}  # (k, j): (kind, micro-batch) for the j-th action of stage k
    for k in range(S):
        counts = {"F": 0, "B": 0}
        for j, kind in enumerate(_order_string(k, S, M)):
            actions[k, j] = (kind, counts[kind])
            counts[kind] += 1
    where = {(k, kind, i): j for (k, j), (kind, i) in actions.items()}
    needs = {node: [] for node in actions}
    for (k, j), (kind, i) in actions.items():
        if j > 0:
            needs[k, j].append((k, j - 1))
        if kind == "F" and k > 0:
            needs[k, j].append((k - 1, where[k - 1, "F", i]))
        if kind == "B" and k < S - 1:
            needs[k, j].append((k + 1, where[k + 1, "B", i]))
    waiting = {node: len(deps) for node, deps in needs.items()}
    unlocks = {node: [] for node in actions}
    for node, deps in needs.items():
        for dep in deps:
            unlocks[dep].append(node)
    ready = deque(sorted(node for node, n in waiting.items() if n == 0))
    received, sent, total = {}, {}, None
    while ready:
        k, j = node = ready.popleft()
        kind, i = actions[node]
        if kind == "F":
            h = xs[i] if k == 0 else sent[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == S - 1:
                out = loss_fn(out, ys[i]) * (ys[i].shape[0] / y.shape[0])
                total = out.detach() if total is None else total + out.detach()
            received[k, i], sent[k, i] = h, out
        else:
            out = sent.pop((k, i))
            grad = None if k == S - 1 else received.pop((k + 1, i)).grad
            torch.autograd.backward(out, grad)
        for nxt in unlocks[node]:
            waiting[nxt] -= 1
            if waiting[nxt] == 0:
                ready.append(nxt)
    return total
