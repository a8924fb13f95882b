# expect: pass
# hint:
import torch
def _norms(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        yield norm
        X = X / norm
def per_step(A, steps):
    return [norm.item() for norm in _norms(A, steps)]  # read as each step is logged
def at_end(A, steps):
    on_device = list(_norms(A, steps))
    return torch.stack(on_device).tolist() if on_device else []
answer = (per_step, at_end)
