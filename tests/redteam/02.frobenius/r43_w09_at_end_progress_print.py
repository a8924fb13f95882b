# expect: fail log_norms_at_end prints progress every 100 steps with the norm in an f-string, a host read each time: 10 reads for 1000 steps, more than 3 (it slips under the limit only for short runs).
# hint: print|f-string|host read|at most|format|progress|sync
import torch


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
    log = []
    for step in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        if step % 100 == 0:
            print(f"step {step}: norm {norm:.4g}")  # formats a device value
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
