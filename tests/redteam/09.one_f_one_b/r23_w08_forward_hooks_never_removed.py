# expect: fail each call registers a forward hook on every stage and never removes it (the handle is dropped): hooks pile up call after call, every forward runs all of them, and each old hook's closure keeps an earlier step's dict and the last outputs in it alive (state kept between calls; the first call is fine)
# hint: hook|handle|remove|register|every call|each call|pile|grow|leak|between calls
import torch

from d2lgpu.pipeline import micro_batches


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    orders = []
    for k in range(S):
        w = min(S - k - 1, M)
        o = [("F", i) for i in range(w)]
        for i in range(M - w):
            o += [("F", w + i), ("B", i)]
        orders.append(o + [("B", i) for i in range(M - w, M)])
    pos, nf, nb = [0] * S, [0] * S, [0] * S
    inp, out, total = {}, {}, 0
    latest = {}  # each stage's output, caught by a forward hook as it is made
    for k, stage in enumerate(stages):
        stage.register_forward_hook(lambda mod, args, result, k=k: latest.__setitem__(k, result))
    while any(pos[k] < len(orders[k]) for k in range(S)):
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            kind, i = orders[k][pos[k]]
            if kind == "F":
                if k > 0 and nf[k - 1] <= i:
                    continue
                h = xs[i] if k == 0 else out[k - 1, i].detach().requires_grad_()
                stages[k](h)
                o = latest[k]
                if k == S - 1:
                    o = loss_fn(o, ys[i]) * (len(xs[i]) / len(x))
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
