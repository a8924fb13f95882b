# expect: fail collects the gradients with torch.autograd.grad and assigns p.grad at the end, which throws away the gradients already in .grad instead of adding to them
# hint: add(ed)? to|accumulat|already in|existing|overwr|replac|(previous|earlier|prior) grad|\.grad (held|had)|assign
# WRONG: right when .grad starts as None (after zero_grad()), wrong when the caller left
# gradients in .grad: the step must add to them, as backward does.
import torch

from d2lgpu.pipeline import micro_batches


def answer(stages, x, y, loss_fn, n_micro):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    params = [list(stage.parameters()) for stage in stages]
    sums = [[torch.zeros_like(p) for p in ps] for ps in params]
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            order += [("F", warm + j), ("B", j)]
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)
    pos, done = [0] * S, set()
    inputs, outputs, input_grads, losses = {}, {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            phase, i = orders[k][pos[k]]
            if phase == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                h = inputs.pop((k, i))
                wrt = params[k] + ([h] if k > 0 else [])
                grad_out = None if k == S - 1 else input_grads.pop((k + 1, i))
                grads = torch.autograd.grad(out, wrt, grad_outputs=grad_out, allow_unused=True)
                for acc, g in zip(sums[k], grads[: len(params[k])]):
                    if g is not None:
                        acc += g
                if k > 0:
                    input_grads[k, i] = grads[-1]
                if k == S - 1:
                    losses.append(out.detach())
            done.add((phase, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("stuck")
    for ps, acc in zip(params, sums):
        for p, g in zip(ps, acc):
            p.grad = g  # the step's gradients
    return torch.stack(losses).sum()
