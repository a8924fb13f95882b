# expect: pass each stage a Python generator that runs its own 1F1B order and yields while what it needs is not there yet; a round-robin driver; micro_batches from d2lgpu
# hint:
import torch
from d2lgpu.pipeline import micro_batches


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    M = len(xs)
    acts = [[None] * M for _ in range(S + 1)]   # acts[k][i]: input of stage k (detached leaf)
    outs = [[None] * M for _ in range(S)]
    grads_ready = [[False] * M for _ in range(S + 1)]
    for i in range(M):
        acts[0][i] = xs[i]
    losses = [None] * M

    def stage(k):
        warm = min(S - k - 1, M)
        plan = ["F"] * warm
        for _ in range(M - warm):
            plan += ["F", "B"]
        plan += ["B"] * warm
        nf = nb = 0
        for action in plan:
            if action == "F":
                i = nf
                while acts[k][i] is None:
                    yield
                out = stages[k](acts[k][i])
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (xs[i].shape[0] / x.shape[0])
                    losses[i] = out.detach()
                else:
                    acts[k + 1][i] = out.detach().requires_grad_()
                outs[k][i] = out
                nf += 1
            else:
                i = nb
                while k < S - 1 and not grads_ready[k + 1][i]:
                    yield
                out, outs[k][i] = outs[k][i], None
                if k == S - 1:
                    out.backward()
                else:
                    out.backward(acts[k + 1][i].grad)
                    acts[k + 1][i] = None
                grads_ready[k][i] = True
                nb += 1

    workers = [stage(k) for k in range(S)]
    while workers:
        for w in list(workers):
            try:
                next(w)
            except StopIteration:
                workers.remove(w)
    return sum(losses[1:], losses[0])


answer = one_f_one_b_step
