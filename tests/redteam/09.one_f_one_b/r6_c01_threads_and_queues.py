# expect: pass
# hint:
import queue
import threading

import torch


def answer(stages, x, y, loss_fn, n_micro):
    """A thread per stage, as a real pipeline runs; queues carry activations forward and
    gradients back, so each action waits for what it needs."""
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    fwd = [queue.Queue() for _ in range(S + 1)]
    bwd = [queue.Queue() for _ in range(S + 1)]
    losses, errors = [None] * M, []

    def work(k):
        try:
            w = min(S - k - 1, M)
            order = [("F", i) for i in range(w)]
            for i in range(M - w):
                order += [("F", w + i), ("B", i)]
            order += [("B", i) for i in range(M - w, M)]
            ins, outs = {}, {}
            for kind, i in order:
                if kind == "F":
                    h = xs[i] if k == 0 else fwd[k].get(timeout=60)
                    if k > 0:
                        h = h.detach().requires_grad_()
                    out = stages[k](h)
                    if k == S - 1:
                        out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                        losses[i] = out.detach()
                    else:
                        fwd[k + 1].put(out)
                    ins[i], outs[i] = h, out
                else:
                    out = outs.pop(i)
                    if k == S - 1:
                        out.backward()
                    else:
                        out.backward(bwd[k].get(timeout=60))
                    h = ins.pop(i)
                    if k > 0:
                        bwd[k - 1].put(h.grad)
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
            raise

    threads = [threading.Thread(target=work, args=(k,)) for k in range(S)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return torch.stack(losses).sum()
