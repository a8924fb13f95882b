# expect: pass a generator of device norms shared by two closures
# hint: 
import torch


def _norms(A, steps):
    """Yields each step's Frobenius norm as a 0-d tensor on A's device."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        yield norm  # the caller logs it before the next step runs
        X = X / norm


def _make(per_step):
    def logger(A, steps):
        if per_step:
            return [float(norm) for norm in _norms(A, steps)]
        kept = list(_norms(A, steps))
        return torch.stack(kept).tolist() if kept else []

    logger.__name__ = logger.__qualname__ = (
        "log_norms_per_step" if per_step else "log_norms_at_end"
    )
    return logger


log_norms_per_step = _make(per_step=True)
log_norms_at_end = _make(per_step=False)

answer = (log_norms_per_step, log_norms_at_end)
