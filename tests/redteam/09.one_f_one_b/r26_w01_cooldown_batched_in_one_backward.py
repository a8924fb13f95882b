# expect: fail each stage's orders are 1F1B's, but once a stage reaches its cool-down it waits until all its remaining backwards have their gradients and runs them in ONE torch.autograd.backward(outputs, grads) call; autograd's engine takes the most recently created graph first, so the cool-down backwards run last micro-batch first (B3 B2 B1, not B1 B2 B3)
# hint: cool.?down|order|revers|one (call|backward)|together|batch(ed)?|autograd\.backward|last micro-batch first|in order|0 first
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    steady, cooldown = [], []
    for k in range(S):
        warm = min(S - k - 1, M)
        seq = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            seq += [("F", warm + j), ("B", j)]
        steady.append(seq)
        cooldown.append(list(range(M - warm, M)))  # run as one backward call at the end
    pos = [0] * S
    done = set()
    inputs, outputs, total = {}, {}, 0.0

    def ready(k, kind, i):
        if kind == "F":
            return k == 0 or ("F", k - 1, i) in done
        return k == S - 1 or ("B", k + 1, i) in done

    while any(pos[k] < len(steady[k]) or cooldown[k] for k in range(S)):
        for k in range(S):
            if pos[k] < len(steady[k]):
                kind, i = steady[k][pos[k]]
                if not ready(k, kind, i):
                    continue
                pos[k] += 1
                if kind == "F":
                    h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                    out = stages[k](h)
                    if k == S - 1:
                        out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    inputs[k, i], outputs[k, i] = h, out
                else:
                    out = outputs.pop((k, i))
                    if k == S - 1:
                        out.backward()
                        total = total + out.detach()
                    else:
                        out.backward(inputs.pop((k + 1, i)).grad)
                done.add((kind, k, i))
            elif cooldown[k] and all(ready(k, "B", i) for i in cooldown[k]):
                # the cool-down: every remaining backward of this stage in one call
                rest = cooldown[k]
                outs = [outputs.pop((k, i)) for i in rest]
                if k == S - 1:
                    torch.autograd.backward(outs)
                    total = total + sum(o.detach() for o in outs)
                else:
                    torch.autograd.backward(outs, [inputs.pop((k + 1, i)).grad for i in rest])
                done.update(("B", k, i) for i in rest)
                cooldown[k] = []
    return total


answer = one_f_one_b_step
