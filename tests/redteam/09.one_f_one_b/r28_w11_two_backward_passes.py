# expect: fail Each backward runs twice through the stage: torch.autograd.grad(..., retain_graph=True) for the input's gradient to send, then out.backward(grad) for the parameters; the values are right, but every backward costs two passes and holds the graph a while longer, and the backward reaches each output twice.
# hint: (twice|two (backward|passes)|autograd\.grad|retain_graph|second backward|again|more than once)
# name: one_f_one_b_step
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


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, N = len(stages), len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders, pos = _orders(S, M), [0] * S
    fwd, bwd = [0] * S, [0] * S
    inputs, outputs, sent, losses = {}, {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            phase, i = orders[k][pos[k]]
            if phase == "F":
                if k > 0 and fwd[k - 1] <= i:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / N)
                inputs[k, i], outputs[k, i] = h, out
                fwd[k] += 1
            else:
                if k < S - 1 and bwd[k + 1] <= i:
                    continue
                out, h = outputs.pop((k, i)), inputs.pop((k, i))
                grad = None if k == S - 1 else sent.pop((k + 1, i))
                if k > 0:  # the gradient to send back first, as a real pipeline would
                    (sent[k, i],) = torch.autograd.grad(out, h, grad, retain_graph=True)
                out.backward(grad)  # then the parameters' gradients
                if k == S - 1:
                    losses.append(out.detach())
                bwd[k] += 1
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("schedule is stuck")
    return torch.stack(losses).sum()
