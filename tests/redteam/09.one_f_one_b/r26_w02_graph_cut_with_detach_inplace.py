# expect: fail the graph is cut with detach_() (in place) instead of detach(): that strips the sending stage's own output of its graph (the next stage's input is that same tensor), so the sending stage's backward no longer reaches its parameters; with 2 stages the first stage's gradients stay as they were and its log shows each backward twice, with 3 or more stages the step raises
# hint: detach_|in.place|in place|detach\(\)|graph|cut|no gradient|stage.s (parameters|gradients)|earlier stages|only the last
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
    done, sent, total = set(), {}, 0.0
    inbox = {}
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
                if k == 0:
                    h = xs[i]
                else:
                    # cut the graph where the stages meet, without copying the activations
                    h = sent[k - 1, i].detach_().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inbox[k, i], sent[k, i] = h, out
            else:
                out = sent.pop((k, i))
                if k == S - 1:
                    out.backward()
                    total = total + out.detach()
                else:
                    out.backward(inbox.pop((k + 1, i)).grad)
            done.add((kind, k, i))
    return total


answer = one_f_one_b_step
