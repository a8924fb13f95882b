# expect: fail never divides X by its norm: the norms grow and overflow to inf for longer runs
# hint: divid|normali|inf|overflow|finite|X / norm|value|differ
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        out.append(torch.linalg.matrix_norm(X).item())
    return out
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        log.append(torch.linalg.matrix_norm(X))
    return torch.stack(log).tolist()
answer = (per_step, at_end)
