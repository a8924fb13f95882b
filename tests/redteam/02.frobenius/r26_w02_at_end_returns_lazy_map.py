# expect: fail at-end version returns map(float, stacked_log), a lazy iterator, not a list: nothing is transferred inside the call, and each float() read (one per norm, steps host syncs) happens later, when the caller iterates, outside the call being measured
# hint: map|iterator|lazy|generator|not a list|list of|after (it |the call )?return|float\(\)|each (norm|value)|one per|host read
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
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
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    # Python floats, converted only when someone actually looks at them
    return map(float, torch.stack(log))


answer = (log_norms_per_step, log_norms_at_end)
