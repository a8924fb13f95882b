# expect: fail at-end version returns list(array): numpy.float32 items, not Python floats
# hint: float|python|numpy|type
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
    return list(torch.stack(norms).cpu().numpy())  # one transfer, but items are np.float32


answer = (log_norms_per_step, log_norms_at_end)
