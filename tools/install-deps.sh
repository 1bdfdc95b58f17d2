#!/usr/bin/env bash
# Installs the Debian 12 packages warpscope needs, only those that are missing.
# Runs apt-get as root, or through sudo. Then NVIDIA's disassemblers (nvdisasm, cuobjdump) from
# their pip wheels, for `warpscope sass`, where no CUDA toolkit on this machine has them.
set -euo pipefail

# The disassemblers: into the folder warpscope looks in (toolchain/compiled.h CudaToolsDir).
install_cuda_tools() {
  local dir="${WARPSCOPE_CUDA_TOOLS:-$HOME/.local/share/warpscope/cuda-tools}"
  if command -v nvdisasm >/dev/null || [ -x /usr/local/cuda/bin/nvdisasm ] ||
     compgen -G "$dir/nvidia/cu*/bin/nvdisasm" >/dev/null; then
    return 0
  fi
  echo "install-deps: installing nvdisasm and cuobjdump (pip) into $dir"
  python3 -m pip install --quiet --target "$dir" nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump ||
    echo "install-deps: could not install nvdisasm; warpscope sass shows PTX instead" >&2
}
trap install_cuda_tools EXIT

packages=(
  build-essential cmake ninja-build pkg-config git
  libboost-context-dev libcli11-dev nlohmann-json3-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  libimgui-dev libglfw3-dev libstb-dev libgl-dev libgif-dev fonts-dejavu-core
  xvfb xauth python3 python3-pip
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
