# expect: fail warm-up counted with n_micro, not M: with fewer rows than warm-up forwards, a stage drops backwards
# hint: warm.?up|n_micro|fewer rows|missing .*backward|backward.*missing|order
import torch


def _orders(S, M, n_micro):
    orders = []
    for k in range(S):
        warm = min(S - k - 1, n_micro)
        fwd = [("F", i) for i in range(M)]
        bwd = [("B", i) for i in range(M)]
        steady = [a for pair in zip(fwd[warm:], bwd) for a in pair]
        order = fwd[:warm] + steady + bwd[M - warm:]
        orders.append(order)
    return orders


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = _orders(S, M, n_micro)
    pos = [0] * S
    done = set()
    inputs, outputs, losses = {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(S)):
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
                    losses.append(out.detach())
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            pos[k] += 1
    return torch.stack(losses).sum()


answer = one_f_one_b_step
