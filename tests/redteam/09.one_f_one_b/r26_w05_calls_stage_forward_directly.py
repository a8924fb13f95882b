# expect: fail the stages are run as stages[k].forward(h) instead of stages[k](h): the module's __call__ is skipped, and with it every forward hook and pre-hook registered on the stage (the checker's logging, or anything else a stage relies on), so the step is not the stages "applied" as modules
# hint: \.forward\(|__call__|hook|call the module|stage\(h\)|stages\[k\]\(|module.s (call|hooks)|forward hook
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
    done, inputs, outputs, total = set(), {}, {}, 0.0
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
                out = stages[k].forward(h)  # straight to the stage's computation
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    total = total + out.detach()
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((kind, k, i))
    return total


answer = one_f_one_b_step
