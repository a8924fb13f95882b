# expect: fail log_norms_at_end keeps its device log in float16 to save memory: fine (within 5e-4) for norms between about 6e-5 and 65504, but a large-scale A (norms above 65504) logs inf, and a small-scale one (norms below 6e-5) logs float16 subnormals off by far more than 1e-3.
# hint: (float16|half|fp16|precision|dtype|overflow|inf|65504|subnormal|range)
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=torch.float16, device=A.device)  # half the bytes
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
