# expect: pass
# hint:
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    with torch.inference_mode():
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
    with torch.inference_mode():
        X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm)
            X = X / norm
        return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
