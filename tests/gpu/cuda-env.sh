# Sourced by run and run-notebooks (in .gpu/): NVRTC and cuBLAS from the CUDA
# toolkit, else from the pip wheels' folders (nvidia-*-cu13 under torch's venv).
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done
py_nv=$("${PYTHON:-python3}" -c 'import nvidia, os; print(os.path.dirname(nvidia.__path__[0]))' 2>/dev/null || true)
if [ -n "$py_nv" ]; then
  for d in "$py_nv"/nvidia/*/lib "$py_nv"/nvidia/cu13/lib; do [ -d "$d" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:$d"; done
fi
true
