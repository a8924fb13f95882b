# expect: fail bfloat16 branch clips at the hard-coded default 1.0 instead of the max_norm argument (float16 branch is right)
# hint: max.?norm|clip.{0,60}(argument|threshold|default|1\.0)|(argument|threshold).{0,40}clip
# Wrong: the prompt says the checker uses a max_norm other than the default, "so clip with the
# argument"; only the bf16 path ignores it, so a float16-only test passes.
import torch
import torch.nn.functional as F

CLIP = 1.0  # "the usual clipping value"


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), CLIP)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
