# expect: pass one generator coroutine per stage, each yields what it waits for; a scheduler resumes the ready ones
# hint:
# name: one_f_one_b_step
import torch


class _Board:
    def __init__(self):
        self.done = set()
        self.acts = {}
        self.leaves = {}
        self.losses = []


def _stage_worker(k, S, M, stage, xs, ys, n_rows, loss_fn, board):
    warm = min(S - k - 1, M)
    steps = [("F", i) for i in range(warm)]
    for j in range(M - warm):
        steps.append(("F", warm + j))
        steps.append(("B", j))
    steps.extend(("B", i) for i in range(M - warm, M))
    for kind, i in steps:
        if kind == "F":
            if k > 0:
                yield ("F", k - 1, i)
            h = xs[i] if k == 0 else board.acts[k - 1, i].detach().requires_grad_()
            out = stage(h)
            if k == S - 1:
                out = loss_fn(out, ys[i]) * (len(xs[i]) / n_rows)
            board.leaves[k, i], board.acts[k, i] = h, out
        else:
            if k < S - 1:
                yield ("B", k + 1, i)
                board.acts.pop((k, i)).backward(board.leaves.pop((k + 1, i)).grad)
            else:
                loss = board.acts.pop((k, i))
                loss.backward()
                board.losses.append(loss.detach())
        board.done.add((kind, k, i))


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    M = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    board = _Board()
    workers = {}
    waiting = {}
    for k, stage in enumerate(stages):
        workers[k] = _stage_worker(k, S, M, stage, xs, ys, len(x), loss_fn, board)
        waiting[k] = None  # not started
    while workers:
        for k in list(workers):
            need = waiting[k]
            if need is not None and need not in board.done:
                continue
            try:
                waiting[k] = next(workers[k])  # runs until it needs something
            except StopIteration:
                del workers[k]
    return torch.stack(board.losses).sum()
