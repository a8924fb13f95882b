# expect: pass
# hint:
# name: one_f_one_b_step
import heapq

import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, N = len(stages), len(x)
    M = min(n_micro, N)
    mb = list(zip(torch.tensor_split(x, M), torch.tensor_split(y, M)))

    # Each stage's sequence in 1F1B's order.
    seq = {}
    for k in range(S):
        w = min(S - k - 1, M)
        s = [("F", k, i) for i in range(w)]
        for i in range(w, M):
            s.append(("F", k, i))
            s.append(("B", k, i - w))
        s.extend(("B", k, i) for i in range(M - w, M))
        seq[k] = s

    # The dependency graph: each stage's own order, plus what each action needs.
    needs = {a: set() for s in seq.values() for a in s}
    for s in seq.values():
        for before, after in zip(s, s[1:]):
            needs[after].add(before)
    for k in range(S):
        for i in range(M):
            if k > 0:
                needs[("F", k, i)].add(("F", k - 1, i))
            if k < S - 1:
                needs[("B", k, i)].add(("B", k + 1, i))
    users = {a: [] for a in needs}
    for a, ns in needs.items():
        for n in ns:
            users[n].append(a)

    # Kahn's algorithm; among the ready actions, the one whose stage is furthest along.
    count = {a: len(ns) for a, ns in needs.items()}
    ready = [(seq[a[1]].index(a), a[1], a) for a, c in count.items() if c == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, _, a = heapq.heappop(ready)
        order.append(a)
        for u in users[a]:
            count[u] -= 1
            if count[u] == 0:
                heapq.heappush(ready, (seq[u[1]].index(u), u[1], u))
    assert len(order) == 2 * S * M

    acts, ins, total = {}, {}, 0.0
    for phase, k, i in order:
        if phase == "F":
            xb, yb = mb[i]
            a = xb if k == 0 else acts[k - 1, i].detach().requires_grad_()
            out = stages[k](a)
            if k == S - 1:
                out = loss_fn(out, yb) * (xb.size(0) / N)
            ins[k, i], acts[k, i] = a, out
        elif k == S - 1:
            loss = acts.pop((k, i))
            loss.backward()
            total = total + loss.detach()
        else:
            out = acts.pop((k, i))
            out.backward(ins.pop((k + 1, i)).grad)
    ins.clear()
    return total
