# expect: fail runs every stage's forwards and then its backwards (GPipe's order), the same loss and gradients but every micro-batch's activations kept at once instead of 1F1B's interleaving
# hint: GPipe|1F1B|order|interleav|warm-up
# name: one_f_one_b_step
import torch


def _orders(n_stages, m):
    orders = []
    for k in range(n_stages):
        order = [("F", i) for i in range(m)] + [("B", i) for i in range(m)]
        orders.append(order)
    return orders


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = _orders(S, M)
    position, done = [0] * S, set()
    inputs, outputs, losses = {}, {}, []
    left = sum(map(len, orders))
    while left:
        moved = False
        for k in range(S):
            if position[k] == len(orders[k]):
                continue
            kind, i = orders[k][position[k]]
            if kind == "F":
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
            done.add((kind, k, i))
            position[k] += 1
            left -= 1
            moved = True
        if not moved:
            raise RuntimeError("the orders wait on each other")
    return torch.stack(losses).sum()
