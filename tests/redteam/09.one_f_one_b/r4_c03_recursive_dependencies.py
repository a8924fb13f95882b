# expect: pass
# hint: 
import functools
import torch


def answer(stages, x, y, loss_fn, n_micro):
    """Memoized recursion: to run a stage's j-th action, first run its (j - 1)-th, and the
    action of the neighbouring stage it needs."""
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    plans = []
    for k in range(S):
        w = min(S - k - 1, M)
        f = [("F", i) for i in range(M)]
        b = [("B", i) for i in range(M)]
        plan = f[:w]
        for j in range(M - w):
            plan.extend((f[w + j], b[j]))
        plan.extend(b[M - w:])
        plans.append(plan)
    where = {(k, a): j for k in range(S) for j, a in enumerate(plans[k])}
    acts, outs, grads = {}, {}, {}
    losses = []
    ran = set()

    def run(k, j):
        if (k, j) in ran:
            return
        if j > 0:
            run(k, j - 1)  # a stage keeps its own order
        kind, i = plans[k][j]
        if kind == "F":
            if k > 0:
                run(k - 1, where[k - 1, ("F", i)])
                h = outs[k - 1, i].detach().requires_grad_()
            else:
                h = xs[i]
            out = stages[k](h)
            if k == S - 1:
                out = loss_fn(out, ys[i]).mul(len(ys[i]) / len(y))
            acts[k, i], outs[k, i] = h, out
        else:
            if k < S - 1:
                run(k + 1, where[k + 1, ("B", i)])
                outs.pop((k, i)).backward(grads.pop((k + 1, i)))
            else:
                loss = outs.pop((k, i))
                loss.backward()
                losses.append(loss.detach())
            h = acts.pop((k, i))
            if k > 0:
                grads[k, i] = h.grad
        ran.add((k, j))

    # drive it the way the stages would: each stage, in turn, its next action
    for j in range(2 * M):
        for k in range(S):
            run(k, j)
    return sum(losses)
