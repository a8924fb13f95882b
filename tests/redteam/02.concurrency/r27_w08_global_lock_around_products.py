# expect: fail guards each product with one module-level threading.Lock, from the belief that torch calls are not thread-safe: on lanes that run their jobs in threads (CPU thread pools) y's product waits for x's to finish, one after the other; on CUDA lanes the lock covers only the launch, so there it still overlaps
# hint: lock|mutex|thread.?safe|serial|one after|sequen|in turn|not (at once|concurrent)|overlap|waited? for
# open: the checker's lanes run each function as it is submitted, in the caller's thread, so two jobs never run at the same time there: a lock around each product changes nothing the check can see
import threading

import torch

_torch_lock = threading.Lock()  # one torch call at a time across threads


def _square(m):
    with _torch_lock:
        return torch.matmul(m, m)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square, x)
    fy = lanes[1].submit(_square, y)
    return fx.result(), fy.result()


answer = run_concurrently
