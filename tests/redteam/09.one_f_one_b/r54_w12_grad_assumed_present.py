# expect: fail adds into p.grad in place (torch.autograd.grad + p.grad.add_), which crashes when the caller's zero_grad() left .grad as None
# hint: None|zero_grad|grad.*(not|never) (set|exist)|AttributeError|NoneType
import torch


def _orders(S, M):
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            order += [("F", warm + j), ("B", j)]
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)
    return orders


def _backward(stage, out, h, grad):
    """out.backward(grad), by hand: the parameters' gradients added to .grad, h's returned."""
    params = [p for p in stage.parameters() if p.requires_grad]
    wrt = params + ([h] if h.requires_grad else [])
    grads = torch.autograd.grad(out, wrt, grad, allow_unused=True)
    for p, g in zip(params, grads):
        if g is not None:
            p.grad.add_(g)  # accumulate: the caller zeroes, we add
    return grads[len(params)] if h.requires_grad else None


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = _orders(S, M)
    pos = [0] * S
    inputs, outputs, sent_back, losses = {}, {}, {}, []
    forwarded = set()
    while any(pos[k] < len(orders[k]) for k in range(S)):
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            phase, i = orders[k][pos[k]]
            if phase == "F":
                if k > 0 and (k - 1, i) not in forwarded:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    losses.append(out.detach())
                inputs[k, i], outputs[k, i] = h, out
                forwarded.add((k, i))
            else:
                if k < S - 1 and (k + 1, i) not in sent_back:
                    continue
                grad = None if k == S - 1 else sent_back.pop((k + 1, i))
                sent_back[k, i] = _backward(stages[k], outputs.pop((k, i)), inputs.pop((k, i)), grad)
            pos[k] += 1
    return torch.stack(losses).sum()


answer = one_f_one_b_step
