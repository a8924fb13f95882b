# expect: pass
# hint: 
import torch
import torch.nn.functional as F

import contextlib


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    def one_step(X, y):
        opt.zero_grad(set_to_none=True)
        with contextlib.ExitStack() as stack:
            stack.enter_context(torch.autocast(device_type=device_type, dtype=dtype, enabled=True))
            logits = net(X)
            loss = F.cross_entropy(logits.float(), y)
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
            opt.step()
        else:
            scaled = scaler.scale(loss)
            scaled.backward()
            scaler.unscale_(optimizer=opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
            scaler.step(opt)
            scaler.update()
        return loss.detach()

    return torch.stack([one_step(X, y) for X, y in batches])
