# expect: pass each stage a generator of its 1F1B actions (lru_cache'd by (S, M)), actions as functools.partial, loss backward with gradient=share
# hint:
import functools
import itertools

import torch


@functools.lru_cache(maxsize=None)
def _order(n_stages, n_micro, k):
    """Stage k's 1F1B order, as a tuple of ("F" | "B", micro-batch)."""
    warm = min(n_stages - k - 1, n_micro)
    fwd = (("F", i) for i in range(n_micro))
    bwd = (("B", i) for i in range(n_micro))
    head = list(itertools.islice(fwd, warm))
    steady = [a for pair in zip(fwd, bwd) for a in pair]  # F(warm + j), B(j)
    return tuple(head + steady + list(bwd))


def _stage_program(k, order, run_forward, run_backward, ready):
    """Yields after each action; waits (yields False) until what the next one needs is done."""
    for phase, i in order:
        while not ready(phase, k, i):
            yield False
        (run_forward if phase == "F" else run_backward)(k, i)
        yield True


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    n_stages = len(stages)
    m = min(n_micro, len(x))
    pieces = list(zip(torch.tensor_split(x, m), torch.tensor_split(y, m)))
    last = n_stages - 1
    inputs, outputs, done, losses = {}, {}, set(), []

    def ready(phase, k, i):
        if phase == "F":
            return k == 0 or ("F", k - 1, i) in done
        return k == last or ("B", k + 1, i) in done

    def run_forward(k, i):
        xb, yb = pieces[i]
        h = xb if k == 0 else outputs[k - 1, i].detach().requires_grad_()
        out = stages[k](h)
        if k == last:
            out = loss_fn(out, yb)  # unweighted: the share goes into backward's gradient
        inputs[k, i], outputs[k, i] = h, out
        done.add(("F", k, i))

    def run_backward(k, i):
        out = outputs.pop((k, i))
        if k == last:
            share = torch.tensor(len(pieces[i][0]) / len(x), dtype=out.dtype)
            out.backward(gradient=share)
            losses.append(out.detach() * share)
        else:
            torch.autograd.backward(out, grad_tensors=inputs.pop((k + 1, i)).grad)
        done.add(("B", k, i))

    programs = [
        _stage_program(
            k,
            _order(n_stages, m, k),
            functools.partial(run_forward),
            functools.partial(run_backward),
            ready,
        )
        for k in range(n_stages)
    ]
    live = list(programs)
    while live:
        still = []
        for program in live:
            try:
                next(program)
            except StopIteration:
                continue
            still.append(program)
        live = still
    inputs.clear()
    return functools.reduce(torch.add, losses)


answer = one_f_one_b_step
