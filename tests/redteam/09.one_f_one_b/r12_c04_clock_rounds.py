# expect: pass
# hint:
# name: one_f_one_b_step
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """1F1B on an ideal clock: each tick, every stage whose next action is ready runs it.

    Stage k does min(S - k, M) forwards first, then a backward and a forward in turn, then
    its remaining backwards: the same sequence as min(S - k - 1, M) warm-up forwards, then
    a forward and a backward in turn, then the last backwards.
    """
    S, N = len(stages), x.shape[0]
    M = min(n_micro, N)
    base, extra = divmod(N, M)  # tensor_split's sizes: the first `extra` get one more row
    bounds = [0]
    for i in range(M):
        bounds.append(bounds[-1] + base + (1 if i < extra else 0))
    xs = [x[bounds[i] : bounds[i + 1]] for i in range(M)]
    ys = [y[bounds[i] : bounds[i + 1]] for i in range(M)]

    orders = []
    for k in range(S):
        first = min(S - k, M)
        o = ["F"] * first
        for _ in range(M - first):
            o += ["B", "F"]
        o += ["B"] * first
        orders.append(o)

    step = [0] * S
    fwd_done = [0] * S
    bwd_done = [0] * S
    grads_in = {}  # (k, i): the detached input of stage k
    outs = {}
    loss = x.new_zeros(())
    while any(step[k] < 2 * M for k in range(S)):
        runnable = []  # decided from the state at the start of the tick
        for k in range(S):
            if step[k] == 2 * M:
                continue
            if orders[k][step[k]] == "F":
                i = fwd_done[k]
                if k == 0 or fwd_done[k - 1] > i:
                    runnable.append((k, "F", i))
            else:
                i = bwd_done[k]
                if k == S - 1 or bwd_done[k + 1] > i:
                    runnable.append((k, "B", i))
        if not runnable:
            raise RuntimeError("no stage can move")
        for k, what, i in runnable:
            if what == "F":
                h = xs[i] if k == 0 else outs[k - 1, i].detach().requires_grad_()
                o = stages[k](h)
                if k == S - 1:
                    o = loss_fn(o, ys[i]) * (len(xs[i]) / N)
                grads_in[k, i], outs[k, i] = h, o
                fwd_done[k] += 1
            else:
                o = outs.pop((k, i))
                if k == S - 1:
                    torch.autograd.backward(o)
                    loss = loss + o.detach()
                else:
                    torch.autograd.backward(o, grads_in.pop((k + 1, i)).grad)
                bwd_done[k] += 1
            step[k] += 1
    return loss
