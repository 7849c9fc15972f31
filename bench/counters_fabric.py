#!/usr/bin/env python3
"""Writes the field-notes fabric as an ibsim netfile: 8 pods x (16 leaf + 16 spine) 64-port
switches, 64 core switches, 4,088 single-port HCAs; 24,568 ports. HDR links (ibsim 0.10
does not know NDR). Used by bench/counters.sh."""
import sys

PODS, LEAVES, SPINES, CORES, PORTS, HOSTS = 8, 16, 16, 64, 64, 4088
links = {}  # (node, port) -> (node, port)


def connect(a, pa, b, pb):
    links[(a, pa)] = (b, pb)
    links[(b, pb)] = (a, pa)


host = 0
for p in range(PODS):
    for l in range(LEAVES):
        leaf = f"leaf-p{p}-{l}"
        for hp in range(32):
            if host < HOSTS:
                connect(leaf, hp + 1, f"gpu{host // 8:03d} mlx5_{host % 8}", 1)
            host += 1
        for s in range(SPINES):  # two cables per leaf-spine pair
            for k in range(2):
                connect(leaf, 33 + 2 * s + k, f"spine-p{p}-{s}", 2 * l + k + 1)
    for s in range(SPINES):  # 32 uplinks: 8 cables to each of 4 cores
        for u in range(32):
            connect(f"spine-p{p}-{s}", 33 + u, f"core-{4 * s + u // 8}", p * 8 + u % 8 + 1)

out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
switches = [f"leaf-p{p}-{l}" for p in range(PODS) for l in range(LEAVES)]
switches += [f"spine-p{p}-{s}" for p in range(PODS) for s in range(SPINES)]
switches += [f"core-{c}" for c in range(CORES)]
for sw in switches:
    out.write(f'Switch\t{PORTS} "{sw}"\n')
    for port in range(1, PORTS + 1):
        if (sw, port) in links:
            peer, pp = links[(sw, port)]
            out.write(f'[{port}]\t"{peer}"[{pp}]\t\t# lid 0 4xHDR\n')
    out.write("\n")
for h in range(HOSTS):
    name = f"gpu{h // 8:03d} mlx5_{h % 8}"
    peer, pp = links[(name, 1)]
    out.write(f'Hca\t1 "{name}"\n[1]\t"{peer}"[{pp}]\t\t# lid 0 4xHDR\n\n')
