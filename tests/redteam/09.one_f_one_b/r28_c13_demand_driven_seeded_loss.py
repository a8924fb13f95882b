# expect: pass
# hint:
# name: one_f_one_b_step
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """Demand-driven: to run an action, first run (recursively) the action it needs, each
    stage always taking its own next action in 1F1B order. The last stage's backward seeds
    the unweighted loss with its share of the rows."""
    S, N = len(stages), len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = []
    for k in range(S):
        w = min(S - k - 1, M)
        orders.append(
            [("F", i) for i in range(w)]
            + [a for j in range(w, M) for a in (("F", j), ("B", j - w))]
            + [("B", i) for i in range(M - w, M)]
        )
    nxt = [0] * S
    done = set()
    recv, outs, losses = {}, {}, []

    def ensure(k, phase, i):
        while (phase, k, i) not in done:
            act, j = orders[k][nxt[k]]
            if act == "F" and k > 0:
                ensure(k - 1, "F", j)
            if act == "B" and k < S - 1:
                ensure(k + 1, "B", j)
            run(k, act, j)
            nxt[k] += 1

    def run(k, act, j):
        if act == "F":
            h = xs[j] if k == 0 else outs[k - 1, j].detach().requires_grad_()
            out = stages[k](h)
            if k == S - 1:
                out = loss_fn(out, ys[j])  # unweighted here; weighted by the seed
            recv[k, j], outs[k, j] = h, out
        else:
            out = outs.pop((k, j))
            if k == S - 1:
                share = len(xs[j]) / N
                out.backward(torch.full_like(out, share))
                losses.append(out.detach() * share)
            else:
                out.backward(recv.pop((k + 1, j)).grad)
        done.add((act, k, j))

    for k in range(S):
        if orders[k]:
            ensure(k, *orders[k][-1])
    return torch.stack(losses).sum()
