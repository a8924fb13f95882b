# expect: pass
# hint:
# Right: the two versions are instances of one callable class (a flag picks when to read),
# same loop as the prompt; per-step reads norm.item() each step, the other reads once.
import torch


class NormLogger:
    """Logs ||A^k||_F, normalized each step; reads each norm at once or all at the end."""

    def __init__(self, read_each_step, name):
        self.read_each_step = read_each_step
        self.__name__ = name  # the notebook's timing cell labels by f.__name__

    def __call__(self, A, steps):
        X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
        log = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log.append(norm.item() if self.read_each_step else norm)
            X = X / norm
        if self.read_each_step:
            return log
        return torch.stack(log).tolist()  # one transfer


log_norms_per_step = NormLogger(True, "log_norms_per_step")
log_norms_at_end = NormLogger(False, "log_norms_at_end")

answer = (log_norms_per_step, log_norms_at_end)
