#!/bin/sh
# Check that kernels/ builds with CUDA 12 (the paper's V100, sm_70, needs it): downloads Debian trixie's CUDA 12.4.1, unpacked into a private prefix (nothing installed system-wide).
set -eu
W=${1:-/tmp/cuda12check}; R=$W/root; T=$W/cuda12; SRC=$(cd "$(dirname "$0")/../kernels" && pwd)
mkdir -p $W
P=http://deb.debian.org/debian/pool/non-free/n/nvidia-cuda-toolkit
cd $W
for d in nvidia-cuda-toolkit_12.4.131~12.4.1-2_amd64.deb nvidia-cuda-dev_12.4.127~12.4.1-2_amd64.deb \
         libcudart12_12.4.127~12.4.1-2_amd64.deb libnvvm4_12.4.131~12.4.1-2_amd64.deb; do
  [ -f "$d" ] || curl -sSfO "$P/$d"
  dpkg -x "$d" "$R"
done
# CUB (emogi/warp_ops.cuh) is not in Debian's nvidia-cuda-dev: CUDA 12.4's own CCCL headers, from their wheel.
[ -d $W/cccl ] || { python3 -m pip download -q --no-deps nvidia-cuda-cccl-cu12==12.4.127.post1 -d $W/whl &&
  python3 -m zipfile -e $W/whl/nvidia_cuda_cccl_cu12-12.4.127.post1-*.whl $W/cccl; }
# Standard CUDA layout made of symlinks; the real nvcc binary is copied so that it reads the nvcc.profile next to it.
rm -rf $T; mkdir -p $T/bin $T/nvvm/bin
cp $R/usr/lib/nvidia-cuda-toolkit/bin/nvcc $T/bin/nvcc
for b in ptxas fatbinary nvlink cudafe++ bin2c cuobjdump nvdisasm nvprune cu++filt; do ln -s $R/usr/bin/$b $T/bin/$b; done
ln -s $R/usr/lib/nvidia-cuda-toolkit/bin/crt $T/bin/crt
ln -s $R/usr/lib/nvidia-cuda-toolkit/bin/cicc $T/nvvm/bin/cicc
ln -s $R/usr/lib/nvidia-cuda-toolkit/libdevice $T/nvvm/libdevice
ln -s $R/usr/include $T/include
ln -s $R/usr/lib/x86_64-linux-gnu $T/lib64
cat > $T/bin/nvcc.profile <<'EOF'
TOP              = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib64:
PATH            += $(TOP)/nvvm/bin:$(_HERE_):
INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64/stubs" "-L$(TOP)/lib64"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
EOF
echo "SYSTEM_INCLUDES += \"-isystem\" \"$W/cccl/nvidia/cuda_cccl/include\" \$(_SPACE_)" >> $T/bin/nvcc.profile
$T/bin/nvcc --version | tail -2
rm -rf $W/build
cmake -S $SRC -B $W/build -G Ninja -DCMAKE_CUDA_COMPILER=$T/bin/nvcc '-DCMAKE_CUDA_ARCHITECTURES=70;90'
cmake --build $W/build -j2
