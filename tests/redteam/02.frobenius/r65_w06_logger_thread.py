# expect: fail the at-end version hands each norm to a logging thread that calls .item() on it: one transfer per step, not one at the end
# hint: thread|each norm|every norm|per.step|each step|every step|\d+ (host )?(reads|transfers)|\d+ times|transfer(red)? once|not once
# Wrong: "asynchronous logging": the loop puts each 0-d norm on a queue and a background thread
# reads it with .item(). The log is not kept on the device, and there are `steps` transfers
# (made on another thread than the caller's).
import queue
import threading

import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    pending = queue.SimpleQueue()
    values = []

    def logger():  # off the training loop's thread: the loop never waits for a read
        while (norm := pending.get()) is not None:
            values.append(norm.item())

    worker = threading.Thread(target=logger, daemon=True)
    worker.start()
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        pending.put(norm)
        X = X / norm
    pending.put(None)
    worker.join()
    return values


answer = (log_norms_per_step, log_norms_at_end)
