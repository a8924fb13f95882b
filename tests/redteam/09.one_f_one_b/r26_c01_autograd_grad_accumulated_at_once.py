# expect: pass each backward is torch.autograd.grad of the stage's output with respect to its parameters and its input (graph freed, no retain_graph), and the parameters' gradients are added into .grad right away by hand (in place, or set when .grad is None); orders as lists, one action per stage per sweep
# hint: 
import torch


def _orders(S, M):
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for i in range(M - warm):
            order += [("F", warm + i), ("B", i)]
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)
    return orders


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = _orders(S, M)
    position = [0] * S
    fwd_done = [[False] * M for _ in range(S)]
    bwd_done = [[False] * M for _ in range(S)]
    inputs, outputs, input_grads = {}, {}, {}
    total = None
    while any(position[k] < len(orders[k]) for k in range(S)):
        for k in range(S):
            if position[k] == len(orders[k]):
                continue
            kind, i = orders[k][position[k]]
            if kind == "F":
                if k > 0 and not fwd_done[k - 1][i]:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
                fwd_done[k][i] = True
            else:
                if k < S - 1 and not bwd_done[k + 1][i]:
                    continue
                out = outputs.pop((k, i))
                seed = None if k == S - 1 else input_grads.pop((k + 1, i))
                params = [p for p in stages[k].parameters() if p.requires_grad]
                h = inputs.pop((k, i))
                wrt = params + ([h] if k > 0 else [])
                grads = torch.autograd.grad(out, wrt, grad_outputs=seed, allow_unused=True)
                for p, g in zip(params, grads):
                    if g is None:
                        continue
                    if p.grad is None:
                        p.grad = g.clone()
                    else:
                        p.grad.add_(g)
                if k > 0:
                    input_grads[k, i] = grads[-1]
                if k == S - 1:
                    total = out.detach() if total is None else total + out.detach()
                bwd_done[k][i] = True
            position[k] += 1
    return total


answer = one_f_one_b_step
