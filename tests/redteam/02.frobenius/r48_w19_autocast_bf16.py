# expect: fail runs the loop under autocast to bfloat16 ("mixed precision is faster"): norms off by more than 1e-3 relative
# hint: autocast|bfloat|bf16|half|precision|dtype|relative|1e-3|reference|differ
import torch


def _run(A, steps, read_each):
    with torch.autocast(device_type=A.device.type, dtype=torch.bfloat16):
        X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
        out = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            out.append(norm.item() if read_each else norm)
            X = X / norm
    return out if read_each else torch.stack(out).float().tolist()


def log_norms_per_step(A, steps):
    return _run(A, steps, True)


def log_norms_at_end(A, steps):
    return _run(A, steps, False)


answer = (log_norms_per_step, log_norms_at_end)
