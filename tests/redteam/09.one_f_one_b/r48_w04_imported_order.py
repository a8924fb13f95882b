# expect: fail takes the orders from d2lgpu.pipeline.one_f_one_b_order (imported at the top, so a later watch on the module misses it)
# hint: d2lgpu|one_f_one_b_order|helper|library|your own|yourself|write the orders
from d2lgpu.pipeline import micro_batches, one_f_one_b_order


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    M = len(xs)
    orders = [list(o) for o in one_f_one_b_order(S, M)]
    nxt = [0] * S
    done = set()
    inputs, outputs = {}, {}
    total = 0.0
    while any(nxt[k] < len(orders[k]) for k in range(S)):
        for k in range(S):
            if nxt[k] == len(orders[k]):
                continue
            phase, i = orders[k][nxt[k]]
            if phase == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                inputs[k, i] = h
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    total = total + out.detach()
                outputs[k, i] = out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                out.backward() if k == S - 1 else out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            nxt[k] += 1
    return total


answer = one_f_one_b_step
