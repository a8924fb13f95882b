# expect: fail warm-up of min(S - k, M) forwards (torch Schedule1F1B's count), one more than 1F1B's min(S - k - 1, M)
# hint: warm.?up.*(too long|long|one (too )?many|one more|extra|S - k - 1|min\()|(too many|one more|extra) (warm.?up )?forwards?|min\(S - k - 1|schedule1f1b
# WRONG: the chapter says torch's Schedule1F1B counts one more warm-up forward; taking that count
# gives every stage one forward too many before its first backward (the last stage runs FFBFB...).
import torch

from d2lgpu.pipeline import micro_batches


def _order(S, k, M):
    warm = min(S - k, M)
    order = [("F", i) for i in range(warm)]
    for j in range(M - warm):
        order += [("F", warm + j), ("B", j)]
    return order + [("B", i) for i in range(M - warm, M)]


def answer(stages, x, y, loss_fn, n_micro):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    orders = [_order(S, k, M) for k in range(S)]
    pos, done = [0] * S, set()
    inputs, outputs, losses = {}, {}, []
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
                if k == S - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("stuck")
    return torch.stack(losses).sum()
