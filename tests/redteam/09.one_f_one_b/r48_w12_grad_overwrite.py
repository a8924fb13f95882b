# expect: fail gradients through torch.autograd.grad, summed locally and assigned to p.grad: the caller's gradients in .grad are lost
# hint: add|accumul|existing|already|pre-?existing|\.grad|overwr|replac
import torch
from d2lgpu.pipeline import micro_batches


def _order(S, M, k):
    warm = min(S - k - 1, M)
    order = [("F", i) for i in range(warm)]
    for i in range(M - warm):
        order += [("F", warm + i), ("B", i)]
    return order + [("B", i) for i in range(M - warm, M)]


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    M = len(xs)
    params = [list(stage.parameters()) for stage in stages]
    sums = [[torch.zeros_like(p) for p in ps] for ps in params]  # this step's gradients
    orders = [_order(S, M, k) for k in range(S)]
    nxt, done, inputs, outputs, sent, total = [0] * S, set(), {}, {}, {}, 0.0
    while any(nxt[k] < len(orders[k]) for k in range(S)):
        for k in range(S):
            if nxt[k] == len(orders[k]):
                continue
            phase, i = orders[k][nxt[k]]
            if phase == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                inputs[k, i] = h
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    total = total + out.detach()
                outputs[k, i] = out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                grad_out = None if k == S - 1 else sent.pop((k + 1, i))
                h = inputs.pop((k, i))
                wrt = params[k] + ([h] if k > 0 else [])
                grads = torch.autograd.grad(out, wrt, grad_outputs=grad_out)
                for acc, g in zip(sums[k], grads):
                    acc += g
                if k > 0:
                    sent[k, i] = grads[-1]
            done.add((phase, k, i))
            nxt[k] += 1
    for ps, gs in zip(params, sums):
        for p, g in zip(ps, gs):
            p.grad = g
    return total


answer = one_f_one_b_step
