# expect: fail calls torch.set_float32_matmul_precision("high") (TF32 allowed) at every call and never restores "highest"
# hint: precision|tf32|matmul
import torch


def _fast():
    torch.set_float32_matmul_precision("high")  # TF32 is within the 1e-3 tolerance anyway


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    _fast()
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    _fast()
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
