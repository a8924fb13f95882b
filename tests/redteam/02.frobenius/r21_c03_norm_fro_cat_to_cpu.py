# expect: pass torch.linalg.norm(X, "fro"), torch.div; at-end keeps 1-element tensors, cat, then .cpu().tolist() (two reads, within the 3 allowed)
# hint: 
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0]).to(device=A.device, dtype=A.dtype)
    log = []
    step = 0
    while step < steps:
        X = A @ X
        norm = torch.linalg.norm(X, "fro")
        log.append(norm.item())
        X = torch.div(X, norm)
        step += 1
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0]).to(device=A.device, dtype=A.dtype)
    pieces = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X, "fro")
        pieces.append(norm.reshape(1))
        X = torch.div(X, norm)
    if not pieces:
        return []
    return torch.cat(pieces).cpu().tolist()


answer = (log_norms_per_step, log_norms_at_end)
