# expect: fail sets torch.set_float32_matmul_precision("high") for speed and never puts it back
# hint: matmul.?precision|float32|tf32|precision|setting
import torch


def _loop(A, steps, read_each):
    torch.set_float32_matmul_precision("high")  # TF32 is within 1e-3 anyway, and faster
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item() if read_each else norm)
        X = X / norm
    return norms if read_each else torch.stack(norms).tolist()


def log_norms_per_step(A, steps):
    return _loop(A, steps, True)


def log_norms_at_end(A, steps):
    return _loop(A, steps, False)


answer = (log_norms_per_step, log_norms_at_end)
