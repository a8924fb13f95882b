# expect: fail the at-end version copies A to the host first and runs the whole loop on the CPU: one read, but the work is not on the device
# hint: device|cpu|host|copy|A\.cpu|on the device
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
    A = A.cpu()  # one transfer, then everything is local
    X = torch.eye(A.shape[0], dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
