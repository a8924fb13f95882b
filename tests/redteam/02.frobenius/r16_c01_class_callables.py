# expect: pass a class holding the loop, with two callable instances
# hint: 
import torch


class NormLogger:
    """Runs X = A @ X, logs ||X||_F, X = X / norm; `read_each_step` says when norms reach the host."""

    def __init__(self, name, read_each_step):
        self.__name__ = name
        self.read_each_step = read_each_step

    def __call__(self, A, steps):
        X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
        log = []
        for _ in range(steps):
            X = torch.matmul(A, X)
            norm = torch.linalg.matrix_norm(X, ord="fro")
            log.append(norm.item() if self.read_each_step else norm)
            X = X / norm
        if self.read_each_step:
            return log
        return torch.stack(log).tolist() if log else []


log_norms_per_step = NormLogger("log_norms_per_step", read_each_step=True)
log_norms_at_end = NormLogger("log_norms_at_end", read_each_step=False)

answer = (log_norms_per_step, log_norms_at_end)
