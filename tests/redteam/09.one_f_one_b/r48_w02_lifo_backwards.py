# expect: fail backwards taken from a stack of pending micro-batches (list.pop()): newest first, not 0 first
# hint: order|in order|0 first|reverse|newest|last.?in|micro.?batch \d
from d2lgpu.pipeline import micro_batches


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    M = len(xs)
    # per stage: its warm-up, then its next forward and one backward in turn, then backwards
    warm = [min(S - k - 1, M) for k in range(S)]
    n_fwd = [0] * S
    pending = [[] for _ in range(S)]  # micro-batches forwarded, not yet backwarded
    last_was_forward = [False] * S
    fdone, bdone = set(), set()
    inputs, outputs = {}, {}
    total = 0.0
    while len(bdone) < S * M:
        for k in range(S):
            wants_forward = n_fwd[k] < M and (
                n_fwd[k] < warm[k] or not last_was_forward[k] or not pending[k]
            )
            if wants_forward:
                i = n_fwd[k]
                if k > 0 and (k - 1, i) not in fdone:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    total = total + out.detach()
                inputs[k, i], outputs[k, i] = h, out
                fdone.add((k, i))
                pending[k].append(i)
                n_fwd[k] += 1
                last_was_forward[k] = n_fwd[k] > warm[k]
            elif pending[k]:
                i = pending[k][-1]
                if k < S - 1 and (k + 1, i) not in bdone:
                    continue
                pending[k].pop()
                out = outputs.pop((k, i))
                out.backward() if k == S - 1 else out.backward(inputs.pop((k + 1, i)).grad)
                bdone.add((k, i))
                last_was_forward[k] = False
    return total


answer = one_f_one_b_step
