# expect: pass one class with __call__, two instances (read each step, or read once); the at-end log is a tensor preallocated on A's device with A.new_empty and filled in place
# hint:
import torch


class NormLogger:
    """Logs ||X||_F after each step of X = A @ X / ||.||, reading each norm at once or at the end."""

    def __init__(self, read_each_step, name):
        self.read_each_step = read_each_step
        self.__name__ = name  # the notebook's timing cell labels results with f.__name__

    def __call__(self, A, steps):
        X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
        if self.read_each_step:
            norms = []
        else:
            log = A.new_empty(steps)  # on A's device, A's dtype
        for i in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            if self.read_each_step:
                norms.append(norm.item())  # a host read as it is logged
            else:
                log[i] = norm  # stays on the device
            X = X / norm
        return norms if self.read_each_step else log.tolist()  # one read, at the end


log_norms_per_step = NormLogger(True, "log_norms_per_step")
log_norms_at_end = NormLogger(False, "log_norms_at_end")

answer = (log_norms_per_step, log_norms_at_end)
