# expect: fail the at-end version stacks 1-element tensors, so .tolist() returns a list of one-element lists, not floats
# hint: float|list of|nested|shape|type|python
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
        norm = torch.linalg.matrix_norm(X, keepdim=True)
        log.append(norm.reshape(1))
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
