# expect: fail zeroes the stages' gradients at the start of the step, dropping the gradients already in .grad
# hint: zero|accumulat|add to|already|existing|\.grad|overwr
import torch

from d2lgpu.pipeline import micro_batches


def _orders(n_stages, m):
    orders = []
    for k in range(n_stages):
        warm = min(n_stages - k - 1, m)
        order = [("F", i) for i in range(warm)]
        for i in range(m - warm):
            order += [("F", warm + i), ("B", i)]
        order += [("B", i) for i in range(m - warm, m)]
        orders.append(order)
    return orders


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    for stage in stages:  # a fresh step
        stage.zero_grad()
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    m, n_stages = len(xs), len(stages)
    orders = _orders(n_stages, m)
    pos = [0] * n_stages
    done = set()
    inputs, outputs, losses = {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(n_stages)):
        for k in range(n_stages):
            if pos[k] == len(orders[k]):
                continue
            action, i = orders[k][pos[k]]
            if action == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == n_stages - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < n_stages - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                if k == n_stages - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((action, k, i))
            pos[k] += 1
    return torch.stack(losses).sum()


answer = one_f_one_b_step
