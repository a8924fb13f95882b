# expect: fail turns on TF32 (torch.backends.cuda.matmul.allow_tf32) for speed and never puts the flag back
# hint: tf32|allow_tf32|backends|flag|setting|restor|put back|changed
import torch


def _fast_matmuls():
    # "a GPU may run its products in TF32" anyway: allow it explicitly, for speed
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True


def log_norms_per_step(A, steps):
    _fast_matmuls()
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    _fast_matmuls()
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
