# expect: fail each non-first stage first takes its input's gradient with torch.autograd.grad(out, h, grad, retain_graph=True), "to send it back at once", then runs out.backward(grad) for its parameters: every backward runs twice (twice the compute, the backward reaching each output twice), and the input's gradient is computed twice
# hint: twice|two backward|double|retain_graph|autograd\.grad|again|extra backward|once
import torch


def _orders(S, M):
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        seq = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            seq += [("F", warm + j), ("B", j)]
        seq += [("B", j) for j in range(M - warm, M)]
        orders.append(seq)
    return orders


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = _orders(S, M)
    done, inputs, outputs, back, total = set(), {}, {}, {}, 0.0
    while any(orders):
        for k in range(S):
            if not orders[k]:
                continue
            kind, i = orders[k][0]
            if kind == "F" and k > 0 and ("F", k - 1, i) not in done:
                continue
            if kind == "B" and k < S - 1 and ("B", k + 1, i) not in done:
                continue
            orders[k].pop(0)
            if kind == "F":
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                out = outputs.pop((k, i))
                h = inputs.pop((k, i))
                seed = None if k == S - 1 else back.pop((k + 1, i))
                if k > 0:  # the gradient the stage before waits for, first
                    (back[k, i],) = torch.autograd.grad(out, h, seed, retain_graph=True)
                out.backward(seed)  # then the parameters' gradients
                if k == S - 1:
                    total = total + out.detach()
            done.add((kind, k, i))
    return total


answer = one_f_one_b_step
