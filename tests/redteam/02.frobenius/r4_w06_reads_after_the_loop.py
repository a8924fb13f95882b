# expect: fail the per-step version keeps norms on the device and calls .item() on each only after the loop: as many reads as steps, but no read while stepping
# hint: each step|every step|per step|as you log|during|interleav|order
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return [n.item() for n in log]
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
