# expect: pass a stage's backward written as the scalar surrogate (out * grad).sum().backward(), the same vector-Jacobian product as out.backward(grad); the loss returned as a float summed from .item(); loop over rounds where every stage takes at most one action decided from the state at the round's start
# hint: 
import torch

from d2lgpu.pipeline import micro_batches


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    plan = []
    for k in range(S):
        w = min(S - k - 1, M)
        steady = [a for i in range(M - w) for a in (("F", w + i), ("B", i))]
        plan.append([("F", i) for i in range(w)] + steady + [("B", i) for i in range(M - w, M)])
    at = [0] * S
    F = {k: set() for k in range(S)}
    B = {k: set() for k in range(S)}
    saved, sent, total = {}, {}, 0.0  # sent: the gradient of stage k's input, for stage k - 1
    while any(at[k] < len(plan[k]) for k in range(S)):
        go = []  # what each stage can do this round, from what was done before it
        for k in range(S):
            if at[k] < len(plan[k]):
                kind, i = plan[k][at[k]]
                if kind == "F" and (k == 0 or i in F[k - 1]):
                    go.append((k, kind, i))
                if kind == "B" and (k == S - 1 or i in B[k + 1]):
                    go.append((k, kind, i))
        for k, kind, i in go:
            if kind == "F":
                a = xs[i] if k == 0 else saved[k - 1, i][1].detach().requires_grad_()
                b = stages[k](a)
                if k == S - 1:
                    b = loss_fn(b, ys[i]) * (len(xs[i]) / len(x))
                saved[k, i] = (a, b)
                F[k].add(i)
            else:
                a, b = saved.pop((k, i))
                if k == S - 1:
                    b.backward()
                    total += b.item()
                else:
                    g = sent.pop((k + 1, i))
                    (b * g).sum().backward()  # d/d(params) of <out, grad>: the same as out.backward(grad)
                if a.requires_grad and k > 0:
                    sent[k, i] = a.grad
                B[k].add(i)
            at[k] += 1
    return total


answer = one_f_one_b_step
