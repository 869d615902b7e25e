"""PyTorch's side of the multi-GPU benchmark (issue 22; bench/multi_gpu.sh):
torch.distributed.all_reduce with the NCCL backend, one process per GPU,
float32 1 MiB .. 1 GiB, bus bandwidth as nccl-tests computes it; and
torch.Tensor.to between cuda:0 and cuda:1. NCCL_NVLS_ENABLE=0 is set."""

import os
import time

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

SIZES_MIB = [1, 4, 16, 64, 256, 1024]


def worker(rank, n):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29512"
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=n)
    for mib in SIZES_MIB:
        x = torch.ones(mib * 262144, dtype=torch.float32, device=f"cuda:{rank}")
        dist.all_reduce(x)
        torch.cuda.synchronize()
        reps = 5 if mib >= 256 else 20
        dist.barrier()
        t0 = time.perf_counter()
        for _ in range(reps):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        t = time.perf_counter() - t0
        if rank == 0:
            algbw = mib * 1048576 * reps / t / 1e9
            busbw = algbw * 2 * (n - 1) / n
            print(f"TORCH all_reduce {n} GPUs {mib} MiB: algbw {algbw:.2f} GB/s, busbw {busbw:.2f} GB/s", flush=True)
    dist.destroy_process_group()


def peer():
    for mib in [64, 1024]:
        x = torch.ones(mib * 262144, dtype=torch.float32, device="cuda:0")
        y = x.to("cuda:1")
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(10):
            y = x.to("cuda:1")
        torch.cuda.synchronize()
        t = time.perf_counter() - t0
        print(f"TORCH peer copy cuda:0 -> cuda:1 {mib} MiB: {mib * 1048576 * 10 / t / 1e9:.2f} GB/s", flush=True)
    del y


if __name__ == "__main__":
    n = torch.cuda.device_count()
    if n > 1:
        mp.spawn(worker, args=(n,), nprocs=n)
        peer()
    else:
        print("TORCH: fewer than two GPUs, nothing to compare")
