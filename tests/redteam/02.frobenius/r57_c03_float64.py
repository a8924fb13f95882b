# expect: pass computes in float64 on A's device for accuracy (A converted once), under torch.inference_mode() as a context manager; per-step reads with float(norm); the at-end log is a float64 tensor preallocated on the device
# hint:
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    with torch.inference_mode():
        A64 = A.to(torch.float64)
        X = torch.eye(A.shape[0], device=A.device, dtype=torch.float64)
        norms = []
        for _ in range(steps):
            X = A64 @ X
            norm = torch.linalg.matrix_norm(X, ord="fro")
            norms.append(float(norm))  # a host read every step
            X = X / norm
        return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    with torch.inference_mode():
        A64 = A.to(torch.float64)
        X = torch.eye(A.shape[0], device=A.device, dtype=torch.float64)
        log = torch.zeros(steps, device=A.device, dtype=torch.float64)
        for i in range(steps):
            X = A64 @ X
            norm = torch.linalg.matrix_norm(X, ord="fro")
            log[i] = norm
            X = X / norm
        return log.tolist()  # the one host read


answer = (log_norms_per_step, log_norms_at_end)
