# expect: fail per-step version keeps the log on the device and transfers the whole log so far every step (torch.stack(log).tolist()): one read per step as asked, but step k copies k numbers and re-stacks k tensors, steps**2/2 values in all, a cost the values never show
# hint: whole|entire|all (the )?norms|so far|growing|quadratic|steps ?\*\* ?2|re-?stack|stack.*(each|every) step|every step.*stack|copies
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    on_device = []
    on_host = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        on_device.append(norm)
        on_host = torch.stack(on_device).tolist()  # the host's copy of the log, kept current
        X = X / norm
    return on_host


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
