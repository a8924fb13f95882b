# expect: pass each stage is an asyncio coroutine that walks its own 1F1B order and awaits an asyncio.Event per dependency (the stage before's forward of i, the stage after's backward of i); the event loop runs in a worker thread (asyncio.run cannot run inside a notebook's own loop) that the step joins before returning
# hint: 
import asyncio
import threading

import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    result, failure = {}, []

    async def main():
        forwarded = {(k, i): asyncio.Event() for k in range(S) for i in range(M)}
        backwarded = {(k, i): asyncio.Event() for k in range(S) for i in range(M)}
        acts, inputs, losses = {}, {}, []

        async def stage(k):
            warm = min(S - k - 1, M)
            order = [("F", i) for i in range(warm)]
            for j in range(M - warm):
                order += [("F", warm + j), ("B", j)]
            order += [("B", j) for j in range(M - warm, M)]
            for kind, i in order:
                if kind == "F":
                    if k > 0:
                        await forwarded[k - 1, i].wait()
                    h = xs[i] if k == 0 else acts[k - 1, i].detach().requires_grad_()
                    out = stages[k](h)
                    if k == S - 1:
                        out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    inputs[k, i], acts[k, i] = h, out
                    forwarded[k, i].set()
                else:
                    if k < S - 1:
                        await backwarded[k + 1, i].wait()
                    out = acts.pop((k, i))
                    if k == S - 1:
                        out.backward()
                        losses.append(out.detach())
                    else:
                        out.backward(inputs.pop((k + 1, i)).grad)
                    backwarded[k, i].set()
                await asyncio.sleep(0)  # let the other stages take their turn

        await asyncio.gather(*(stage(k) for k in range(S)))
        result["loss"] = torch.stack(losses).sum()

    def host():
        try:
            asyncio.run(main())
        except BaseException as error:  # handed to the caller's thread
            failure.append(error)

    worker = threading.Thread(target=host)
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return result["loss"]


answer = one_f_one_b_step
