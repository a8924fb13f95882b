# expect: fail "halves" with .half(): converts the first layer to float16 instead of multiplying its weight by 0.5
# hint: half\(\)|\.half|float16|fp16|dtype|0\.5|values? (unchanged|not halved)|multipl
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].half()  # in place: the same Parameter objects, halved


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
