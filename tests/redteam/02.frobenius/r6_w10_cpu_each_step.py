# expect: fail the at-end version moves each norm to the host as it logs it (norm.detach().cpu()) and stacks at the end: a transfer every step
# hint: cpu|host|transfer|each step|every step|3|once
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.detach().cpu())
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
