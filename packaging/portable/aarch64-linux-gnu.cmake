# Cross-builds the portable binary for aarch64 on an x86_64 Debian/Ubuntu machine:
#   cmake -S . -B build/portable-aarch64 -DNCCLCHECK_PORTABLE=ON -DNCCLCHECK_TESTS=OFF \
#         -DCMAKE_TOOLCHAIN_FILE=packaging/portable/aarch64-linux-gnu.cmake
# (scripts/release.sh --arch aarch64 does this). Needs gcc-aarch64-linux-gnu and the arm64
# libjansson-dev (dpkg --add-architecture arm64; scripts/deps.sh installs them).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# the cross glibc's tree and Debian's multiarch directories hold the target's libraries
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
