# expect: pass one class with __call__, its instances configured for per-step or at-end transfers; torch.linalg.norm (Frobenius by default on a matrix)
# hint:
import torch


class NormLogger:
    """Runs X = A @ X, logs ||X||_F, X = X / ||X||_F from X = I; reads per step or once."""

    def __init__(self, read_each_step, name):
        self.read_each_step = read_each_step
        self.__name__ = name  # the timing cells label results with f.__name__

    def __call__(self, A, steps):
        X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
        logged = []
        for _ in range(steps):
            X = torch.matmul(A, X)
            norm = torch.linalg.norm(X)  # ord=None on a 2-D tensor: the Frobenius norm
            logged.append(norm.item() if self.read_each_step else norm)
            X = X / norm
        if self.read_each_step:
            return logged
        return torch.stack(logged).tolist()


log_norms_per_step = NormLogger(True, "log_norms_per_step")
log_norms_at_end = NormLogger(False, "log_norms_at_end")

answer = (log_norms_per_step, log_norms_at_end)
