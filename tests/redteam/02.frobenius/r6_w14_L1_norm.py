# expect: fail uses the entrywise 1-norm (X.abs().sum()) instead of the Frobenius norm
# hint: frobenius|matrix_norm|norm|value|differ|expected
import torch
def _run(A, steps, each):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = X.abs().sum()
        log.append(norm.item() if each else norm)
        X = X / norm
    return log if each else torch.stack(log).tolist()
def per_step(A, steps):
    return _run(A, steps, True)
def at_end(A, steps):
    return _run(A, steps, False)
answer = (per_step, at_end)
