# expect: fail the at-end version prints each norm as a debug line: print of a tensor is a host read every step
# hint: print|host read|each step|every step|3|at_end|at the end
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
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        print(i, norm)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
