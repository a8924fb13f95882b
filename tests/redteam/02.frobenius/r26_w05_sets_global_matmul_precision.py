# expect: fail both functions call torch.set_float32_matmul_precision("medium") and never restore it: a process-wide setting changed for every later float32 product in the caller's program (state left behind by the call); the norms themselves are right on a CPU
# hint: precision|set_float32_matmul_precision|global|process.?wide|tf32|restore|side.?effect|setting
import torch


def _allow_fast_matmul():
    # the exercise says a GPU may run the products in TF32: let it
    torch.set_float32_matmul_precision("medium")


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    _allow_fast_matmul()
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    _allow_fast_matmul()
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = A.new_empty(steps)
    for k in range(steps):
        X = A @ X
        log[k] = torch.linalg.matrix_norm(X)
        X = X / log[k]
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
