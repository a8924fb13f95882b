# expect: pass
# hint: 
import torch
def _identity_like(A):
    X = torch.zeros_like(A)
    X.fill_diagonal_(1.0)
    return X
def per_step(A, steps):
    X = _identity_like(A)
    result = []
    step = 0
    while step < steps:
        X = torch.mm(A, X)
        norm = X.norm(p="fro")
        result.append(norm.item())
        X = X / norm
        step += 1
    return result
def at_end(A, steps):
    X = _identity_like(A)
    log = torch.zeros(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = torch.mm(A, X)
        norm = X.norm(p="fro")
        log[i] = norm
        X = X / norm
    return [float(v) for v in log.cpu().tolist()]
answer = (per_step, at_end)
