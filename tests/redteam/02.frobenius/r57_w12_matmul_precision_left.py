# expect: fail sets torch.set_float32_matmul_precision("high") (TF32, "as a GPU may") inside both functions and never puts back the caller's setting: a process-wide setting changed and left
# hint: float32_matmul_precision|matmul.?precision|tf32|process.?wide|global|setting|restore|put back|changed|left
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    torch.set_float32_matmul_precision("high")  # TF32 products where the GPU has them
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
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
