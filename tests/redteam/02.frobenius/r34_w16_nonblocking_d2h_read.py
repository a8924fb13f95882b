# expect: fail at_end copies the stacked log with .to('cpu', non_blocking=True) and reads it with .tolist() without any sync: on a GPU it can read the pinned buffer before the copy lands
# hint: non_blocking|sync|event|land
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
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    on_host = torch.stack(log).to("cpu", non_blocking=True)  # do not block
    return on_host.tolist()


answer = (log_norms_per_step, log_norms_at_end)
