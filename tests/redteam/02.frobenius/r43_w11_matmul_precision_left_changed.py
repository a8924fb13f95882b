# expect: fail Both versions call torch.set_float32_matmul_precision("high") to let the GPU use TF32 and never put it back, a process-wide setting left changed for every later product of the caller.
# hint: matmul_precision|precision|tf32|setting|process|restore|put back|changed
import torch


def log_norms_per_step(A, steps):
    torch.set_float32_matmul_precision("high")  # TF32 on a GPU: "within 1e-3 anyway"
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    torch.set_float32_matmul_precision("high")
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
