# expect: pass orders built by an in-flight counter (forward while fewer than warm-up + 1 micro-batches are in flight, else backward), the step made by a closure
# hint:
import torch

from d2lgpu.pipeline import micro_batches


def _make_step():
    def order_for(k, n_stages, m):
        limit = min(n_stages - k - 1, m) + 1  # the most micro-batches in flight on stage k
        f = b = 0
        order = []
        while b < m:
            if f < m and f - b < limit:
                order.append(("F", f))
                f += 1
            else:
                order.append(("B", b))
                b += 1
        return order

    def step(stages, x, y, loss_fn, n_micro):
        xs = micro_batches(x, n_micro)
        ys = micro_batches(y, n_micro)
        n, S = len(x), len(stages)
        orders = [order_for(k, S, len(xs)) for k in range(S)]
        cursor = [0] * S
        fwd_done = [set() for _ in range(S)]
        bwd_done = [set() for _ in range(S)]
        acts, inputs, parts = {}, {}, []
        remaining = sum(len(o) for o in orders)
        while remaining:
            for k in range(S):
                if cursor[k] == len(orders[k]):
                    continue
                kind, i = orders[k][cursor[k]]
                if kind == "F":
                    if k and i not in fwd_done[k - 1]:
                        continue
                    h = xs[i] if k == 0 else acts[k - 1, i].detach().requires_grad_()
                    o = stages[k](h)
                    if k == S - 1:
                        o = loss_fn(o, ys[i]) * len(xs[i]) / n
                    inputs[k, i], acts[k, i] = h, o
                    fwd_done[k].add(i)
                else:
                    if k < S - 1 and i not in bwd_done[k + 1]:
                        continue
                    o = acts.pop((k, i))
                    if k == S - 1:
                        parts.append(o.detach())
                        o.backward()
                    else:
                        o.backward(inputs.pop((k + 1, i)).grad)
                    bwd_done[k].add(i)
                cursor[k] += 1
                remaining -= 1
        return sum(parts[1:], parts[0])

    return step


one_f_one_b_step = _make_step()
answer = one_f_one_b_step
