# expect: fail runs both loops under torch.autocast(dtype=torch.bfloat16) "as a GPU may use TF32 anyway": bfloat16 products carry about 3 significant digits, and the norms drift about 5e-3 from the float32 reference, beyond the relative 1e-3 allowed
# hint: bfloat16|bf16|autocast|half|low(er)? precision|reduced precision|1e-3|tolerance|relative|dtype|float32
import torch


def _fast_products(A):
    # tensor cores: the exercise allows TF32, and bfloat16 is the same idea
    return torch.autocast(device_type=A.device.type, dtype=torch.bfloat16)


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    with _fast_products(A):
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log.append(norm.item())
            X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    with _fast_products(A):
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log.append(norm)
            X = X / norm
    return torch.stack(log).float().tolist()


answer = (log_norms_per_step, log_norms_at_end)
