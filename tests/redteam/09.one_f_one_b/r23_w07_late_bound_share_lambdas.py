# expect: fail the micro-batches' shares are lambdas made in a loop, each reading the loop variable j when called, so every one returns the last micro-batch's share: right only when the micro-batches are of equal size (late binding of a closure in a loop)
# hint: late|closure|lambda|bind|loop variable|last micro|share|weight|uneven
import torch

from d2lgpu.pipeline import micro_batches


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    shares = []
    for j in range(M):
        shares.append(lambda: len(xs[j]) / len(x))  # micro-batch i's share of the rows
    orders = []
    for k in range(S):
        w = min(S - k - 1, M)
        o = [("F", i) for i in range(w)]
        for i in range(M - w):
            o += [("F", w + i), ("B", i)]
        orders.append(o + [("B", i) for i in range(M - w, M)])
    pos, nf, nb = [0] * S, [0] * S, [0] * S
    inp, out, total = {}, {}, 0
    while any(pos[k] < len(orders[k]) for k in range(S)):
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            kind, i = orders[k][pos[k]]
            if kind == "F":
                if k > 0 and nf[k - 1] <= i:
                    continue
                h = xs[i] if k == 0 else out[k - 1, i].detach().requires_grad_()
                o = stages[k](h)
                if k == S - 1:
                    o = loss_fn(o, ys[i]) * shares[i]()
                inp[k, i], out[k, i] = h, o
                nf[k] += 1
            else:
                if k < S - 1 and nb[k + 1] <= i:
                    continue
                o = out.pop((k, i))
                if k == S - 1:
                    o.backward()
                    total = total + o.detach()
                else:
                    o.backward(inp.pop((k + 1, i)).grad)
                nb[k] += 1
            pos[k] += 1
    return total


answer = one_f_one_b_step
