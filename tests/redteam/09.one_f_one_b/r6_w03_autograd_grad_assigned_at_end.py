# expect: fail collects the gradients with torch.autograd.grad and ASSIGNS their sums to p.grad at the end: the gradients already in .grad are replaced, not added to
# hint: add|accumulat|already|existing|\.grad|zero|replace|overwr
import torch


SUMS = {}


def collect(stage, out, grad, _):
    params = list(stage.parameters())
    inputs = [h for h in [CURRENT_INPUT.pop(id(out), None)] if h is not None]
    grads = torch.autograd.grad(out, params + inputs, grad)
    for p, g in zip(params, grads):
        SUMS[p] = SUMS.get(p, 0) + g
    for h, g in zip(inputs, grads[len(params):]):
        h.grad = g


CURRENT_INPUT = {}


def finish(stages):
    for stage in stages:
        for p in stage.parameters():
            if p in SUMS:
                p.grad = SUMS.pop(p)
    CURRENT_INPUT.clear()
    return None


def orders(S, M):
    """Each stage's actions: min(S - k - 1, M) forwards, a forward and a backward in turn, the rest."""
    out = []
    for k in range(S):
        w = min(S - k - 1, M)
        seq = [("F", i) for i in range(w)]
        for i in range(M - w):
            seq += [("F", w + i), ("B", i)]
        seq += [("B", i) for i in range(M - w, M)]
        out.append(seq)
    return out


def answer(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    todo = orders(S, M)
    pos = [0] * S
    ins, outs, done, losses = {}, {}, set(), []
    while any(pos[k] < len(todo[k]) for k in range(S)):
        progressed = False
        for k in range(S):
            if pos[k] == len(todo[k]):
                continue
            kind, i = todo[k][pos[k]]
            if kind == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                ins[k, i], outs[k, i] = h, out
                if k > 0:
                    CURRENT_INPUT[id(out)] = h
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outs.pop((k, i))
                if k == S - 1:
                    collect(stages[k], out, None, None)
                    losses.append(out.detach())
                else:
                    collect(stages[k], out, ins.pop((k + 1, i)).grad, None)
            done.add((kind, k, i))
            pos[k] += 1
            progressed = True
        if not progressed:
            raise RuntimeError("the schedule is stuck")
    return finish(stages) or torch.stack(losses).sum()
