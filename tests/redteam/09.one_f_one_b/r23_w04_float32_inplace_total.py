# expect: fail the returned loss is summed in place into a float32 torch.zeros(()) (total.add_), so with float64 (or bfloat16) stages the loss comes back rounded to float32, a dtype other than the unsplit loss's; float32 cases hide it
# hint: dtype|float32|float64|double|bfloat16|precision|zeros|in.place|add_|round
# open: every case's stages are float32, and the prompt names no other dtype: a float32 running total returns the float32 loss exactly there; only stages in another dtype tell it apart
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
    inp, out, total = {}, {}, torch.zeros(())
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
                    o = loss_fn(o, ys[i]) * (len(xs[i]) / len(x))
                inp[k, i], out[k, i] = h, o
                nf[k] += 1
            else:
                if k < S - 1 and nb[k + 1] <= i:
                    continue
                o = out.pop((k, i))
                grad = None if k == S - 1 else inp.pop((k + 1, i)).grad
                torch.autograd.backward(o, grad)
                if k == S - 1:
                    total.add_(o.detach())  # the running loss, in place
                nb[k] += 1
            pos[k] += 1
    return total


answer = one_f_one_b_step
