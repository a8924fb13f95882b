# expect: pass
# hint:
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.vector_norm(X)  # all entries flattened: the Frobenius norm
        norms.append(float(norm))  # host read, every step
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = A.new_empty(steps)  # on A's device, with A's dtype
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.vector_norm(X)
        log[i] = norm  # device to device: no host read
        X = X / norm
    return log.tolist()  # the one transfer


answer = (log_norms_per_step, log_norms_at_end)
