# expect: fail stage k's backward is launched from a hook on stage k+1's received input, so it runs inside the next stage's backward, at once, instead of at its own turn: every stage but the last runs each backward as soon as the last stage does (its warm-up and order are lost, and the stages take turns); the root cause is the re-entrant backward in the hook, not the warm-up count
# hint: hook|nested|inside|re.?entr|immediately|as soon|own turn|chain
import torch

from d2lgpu.pipeline import micro_batches


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    orders = []
    for k in range(S):
        w = min(S - k - 1, M)
        o = [("F", i) for i in range(w)]
        for i in range(M - w):
            o += [("F", w + i), ("B", i)]
        orders.append(o + [("B", i) for i in range(M - w, M)])
    done = set()
    out, total = {}, 0

    def send_back(k, i):  # the gradient reaching stage k+1's input goes on to stage k's output
        def hook(grad):
            out.pop((k, i)).backward(grad)
            done.add(("B", k, i))
        return hook

    pos = [0] * S
    while any(pos[k] < len(orders[k]) for k in range(S)):
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            kind, i = orders[k][pos[k]]
            if kind == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                if k == 0:
                    h = xs[i]
                else:
                    h = out[k - 1, i].detach().requires_grad_()
                    h.register_hook(send_back(k - 1, i))
                o = stages[k](h)
                if k == S - 1:
                    o = loss_fn(o, ys[i]) * (len(xs[i]) / len(x))
                out[k, i] = o
            elif k == S - 1:
                o = out.pop((k, i))
                o.backward()  # the hooks carry it through the earlier stages
                total = total + o.detach()
            elif ("B", k, i) not in done:  # its hook has not run yet
                continue
            done.add((kind, k, i))
            pos[k] += 1
    return total


answer = one_f_one_b_step
