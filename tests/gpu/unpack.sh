# Sourced by the bundle's runners (run, run-notebooks, bench/gpu_bench.sh):
# tests/gpu-bundle stores the binaries gzipped (three ~30 MB binaries would not
# fit the 64 MiB carry limit); unpack them once, in place, on the GPU host.
# $1: the bundle's bin/ folder.
for _z in "$1"/*.gz; do
  [ -e "$_z" ] || continue
  gunzip -f "$_z" && chmod +x "${_z%.gz}"
done
unset _z
