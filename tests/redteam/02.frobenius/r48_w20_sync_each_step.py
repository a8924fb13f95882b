# expect: fail the at-end version waits for the device every step (d2lgpu.sync) "so the stored norm is final": no reads, but a sync per step
# hint: sync|wait|each step|every step|per step
import torch

import d2lgpu


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = torch.empty(steps, device=A.device, dtype=A.dtype)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        d2lgpu.sync(A.device)  # make sure log[i] is written before the next step overwrites X
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
