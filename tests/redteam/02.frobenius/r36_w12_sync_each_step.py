# expect: fail at-end version waits for the device every step (d2lgpu.sync) "so the log is complete": no host read, but one device wait per step
# hint: sync|synchron|wait|each step|every step
import torch

import d2lgpu


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
        d2lgpu.sync(A.device)  # make sure log[i] is written before the next step
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
