# expect: fail at-end version builds the log with torch.tensor(list of 0-d tensors): one host read per element
# hint: read|transfer|sync|item|host|once|at most
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    # looks like one conversion, but torch.tensor() reads every 0-d tensor in the list
    return torch.tensor(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
