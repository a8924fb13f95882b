# expect: fail calls torch.set_float32_matmul_precision("high") and leaves it changed for the rest of the process
# hint: precision|float32_matmul|tf32|setting|flag|restor|put back|changed
import torch


def log_norms_per_step(A, steps):
    torch.set_float32_matmul_precision("high")  # the documented way to get TF32 products
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    torch.set_float32_matmul_precision("high")
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
