# expect: pass the last stage backpropagates the UNweighted micro-batch loss with its share as the backward's seed (loss.backward(torch.full_like(loss, share))), which weights the gradients exactly as multiplying the loss would; the returned loss sums share * loss; micro-batches cut with Tensor.split and explicit sizes equal to tensor_split's; the loop always runs the lowest-numbered stage that can act
# hint: 
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    M = min(n_micro, x.shape[0])
    base, extra = divmod(x.shape[0], M)
    sizes = [base + 1 if i < extra else base for i in range(M)]  # what tensor_split gives
    xs, ys = x.split(sizes), y.split(sizes)

    def plan(k):
        warm = min(S - k - 1, M)
        seq = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            seq.append(("F", warm + j))
            seq.append(("B", j))
        seq.extend(("B", j) for j in range(M - warm, M))
        return seq

    plans = [plan(k) for k in range(S)]
    nxt = [0] * S
    received = {}  # (k, i): stage k's input for micro-batch i (graph cut)
    produced = {}  # (k, i): stage k's output (the last stage: the unweighted loss)
    done = set()
    total = 0.0

    def can_run(k):
        if nxt[k] == len(plans[k]):
            return False
        kind, i = plans[k][nxt[k]]
        if kind == "F":
            return k == 0 or ("F", k - 1, i) in done
        return k == S - 1 or ("B", k + 1, i) in done

    while True:
        k = next((k for k in range(S) if can_run(k)), None)
        if k is None:
            break
        kind, i = plans[k][nxt[k]]
        nxt[k] += 1
        if kind == "F":
            h = xs[i] if k == 0 else produced[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            received[k, i] = h
            produced[k, i] = loss_fn(out, ys[i]) if k == S - 1 else out
        else:
            out = produced.pop((k, i))
            if k == S - 1:
                share = sizes[i] / x.shape[0]
                out.backward(torch.full_like(out, share))
                total = total + share * out.detach()
            else:
                out.backward(received.pop((k + 1, i)).grad)
        done.add((kind, k, i))
    assert all(nxt[k] == len(plans[k]) for k in range(S)), "schedule stuck"
    return total


answer = one_f_one_b_step
