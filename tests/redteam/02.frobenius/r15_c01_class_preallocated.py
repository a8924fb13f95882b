# expect: pass a callable class, preallocated log tensor on A's device, float() reads per step
# hint: 
import torch


class NormLogger:
    """Logs ||X||_F after each of `steps` products X = A @ X, starting from X = I."""

    def __init__(self, read_each_step):
        self.read_each_step = read_each_step

    def __call__(self, A, steps):
        n = A.shape[-1]
        X = torch.eye(n, dtype=A.dtype, device=A.device)
        if self.read_each_step:
            logged = []
            for _ in range(steps):
                X = torch.matmul(A, X)
                norm = torch.linalg.matrix_norm(X)
                logged.append(float(norm))  # a host read, right here
                X = X / norm
            return logged
        log = torch.empty(steps, dtype=A.dtype, device=A.device)
        for i in range(steps):
            X = torch.matmul(A, X)
            norm = torch.linalg.matrix_norm(X)
            log[i] = norm  # stays on the device
            X = X / norm
        return log.tolist()  # the one transfer


log_norms_per_step = NormLogger(read_each_step=True)
log_norms_at_end = NormLogger(read_each_step=False)
answer = (log_norms_per_step, log_norms_at_end)
