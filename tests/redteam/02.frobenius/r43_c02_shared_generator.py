# expect: pass Both versions share one generator that yields each step's 0-d norm lazily; the per-step list comprehension reads each with .item() before the next step is launched, the other stacks them and reads once.
# hint: 
import torch


def _norms(A, steps):
    """Yield ||X||_F after each of `steps` products X = A @ X, X starting at I, normalized each step."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    for _ in range(steps):
        X = torch.matmul(A, X)
        norm = torch.linalg.matrix_norm(X)
        yield norm
        X = X / norm


def log_norms_per_step(A, steps):
    # the generator resumes only after .item() has returned: one read per step, as it is logged
    return [norm.item() for norm in _norms(A, steps)]


def log_norms_at_end(A, steps):
    on_device = list(_norms(A, steps))
    return torch.stack(on_device).tolist()


answer = (log_norms_per_step, log_norms_at_end)
