# expect: pass a clock of time steps: at step t, every stage whose next action is ready runs it
# hint: 
import torch
def answer(stages, x, y, loss_fn, n_micro):
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    S = len(stages)
    queue = []
    for k in range(S):
        w = min(S - k - 1, m)
        q = [("F", i) for i in range(w)]
        f, b = w, 0
        while f < m:
            q += [("F", f), ("B", b)]; f += 1; b += 1
        q += [("B", i) for i in range(b, m)]
        queue.append(q)
    acts, grads_in, total = {}, {}, torch.zeros(())
    finished = set()
    while any(queue):
        ready = []
        for k in range(S):
            if not queue[k]:
                continue
            kind, i = queue[k][0]
            if kind == "F" and (k == 0 or ("F", k - 1, i) in finished):
                ready.append(k)
            if kind == "B" and ((k == S - 1 and ("F", k, i) in finished) or ("B", k + 1, i) in finished):
                ready.append(k)
        for k in ready:  # all ready stages act in the same time step
            kind, i = queue[k].pop(0)
            if kind == "F":
                inp = xs[i] if k == 0 else acts[(k - 1, i)][1].detach().requires_grad_(True)
                out = stages[k](inp)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * xs[i].shape[0] / x.shape[0]
                acts[(k, i)] = (inp, out)
            else:
                inp, out = acts.pop((k, i))
                if k == S - 1:
                    out.backward()
                    total = total + out.detach()
                else:
                    out.backward(acts_in_grad := grads_in.pop((k + 1, i)))
                if k > 0:
                    grads_in[(k, i)] = inp.grad
            finished.add((kind, k, i))
    return total
