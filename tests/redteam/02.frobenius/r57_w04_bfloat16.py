# expect: fail runs the loop in bfloat16 "for speed" (A and X cast once, products and norms in bfloat16): the logged norms are off by up to a few 1e-3, outside the relative 1e-3 allowed
# hint: precision|bfloat16|bf16|half|dtype|toleran|1e-3|relative|accura
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    A16 = A.to(torch.bfloat16)
    X = torch.eye(A.shape[0], device=A.device, dtype=torch.bfloat16)
    norms = []
    for _ in range(steps):
        X = A16 @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    A16 = A.to(torch.bfloat16)
    X = torch.eye(A.shape[0], device=A.device, dtype=torch.bfloat16)
    log = []
    for _ in range(steps):
        X = A16 @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
