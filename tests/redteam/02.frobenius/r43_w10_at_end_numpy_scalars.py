# expect: fail log_norms_at_end returns list(array) of a NumPy array, a list of numpy.float32 scalars rather than Python floats (numpy.float32 is not a float subclass), so the return type is not what the exercise asks.
# hint: python float|float|type|numpy|tolist|list of
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return list(torch.stack(log).cpu().numpy())  # numpy.float32 items, not Python floats


answer = (log_norms_per_step, log_norms_at_end)
