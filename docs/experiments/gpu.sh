#!/usr/bin/env bash
# One prepared run of Burescope's GL backend on a lent GPU machine
# (NVIDIA H100/H200: 16 cores, the NVIDIA driver, PyTorch with CUDA, no Go
# and no network), following ../shared/reference/PLATFORM-NOTES.md.
#
#   bash docs/experiments/gpu.sh prepare        # here: fills .gpu/ (ignored, < 64 MiB)
#   bash docs/experiments/gpu.sh run            # there: results into $OUT (or .gpu/out)
#   bash docs/experiments/gpu.sh append FILE    # here: FILE appended to docs/gpu.md
#   QUICK=1 bash docs/experiments/gpu.sh run    # a small run (llvmpipe, under a minute)
#   STEPS="selftest diag" bash docs/experiments/gpu.sh run  # only some steps:
#       selftest coarse diag bench schemes peer nouns (the default: all);
#       NOUN_DIMS="5" (default "5 10"), PEER=0 (= no peer step)
#
# The device tool runs it as
#   run(command="bash docs/experiments/gpu.sh run", carry=[".gpu"], timeout_s=540)
# and gives back $OUT/gpu-results.md, which `append` adds to docs/gpu.md.
#
# What `run` measures, each step under its own time limit so that the
# whole stays within 8 minutes:
#   1. `burescope selftest` of every backend (cpu, gl, gl64), and the
#      float64 kernels compiled for a driver whose double division and sqrt
#      are single precision (the gpucompute test binary's
#      TestConformanceFP64CoarseDriver, if it was prepared);
#   2. stress + gradient, ns per pair, for d = 2, 3, 5, 10, 16 on GL float32
#      and the CPU's cores (`burescope bench`); the kernel variants
#      (row-owner and WIDE work splits, float32 and float64, Jacobi and
#      Newton-Schulz roots at d = 4..8: the gpucompute test binary's
#      BenchmarkSchemes); the PyTorch CUDA peer (shared/peers/emds_cuda.py,
#      copied into .gpu/) at d = 2, 3, 5, 10;
#   3. one noun epoch of train-relations --backend gl at d = 5 and 10
#      (the resident trainer: the whole step on the GPU).
set -uo pipefail
cd "$(dirname "$0")/../.."
G=.gpu
mode="${1:-}"

prepare() {
  mkdir -p "$G/deb" "$G/lib"
  echo "building the binary and the gpucompute test binary" >&2
  CGO_ENABLED=1 go build -ldflags="-s -w" -o "$G/burescope" . || return 1
  go test -c -ldflags="-s -w" -o "$G/gpucompute.test" ./gpucompute/ || return 1
  (cd "$G/deb" && apt-get download libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null) || return 1
  # The X client libraries the binary links (the GPU machine has none).
  ldd "$G/burescope" | awk '/=> \//{print $3}' | grep -E 'libX|libxcb|libbsd|libmd' | xargs -r cp -L -t "$G/lib"
  cp ../shared/peers/emds_cuda.py "$G/" 2>/dev/null || echo "no PyTorch peer found (../shared/peers/emds_cuda.py)" >&2
  if [ -r /usr/share/wordnet/data.noun ]; then
    mkdir -p "$G/wordnet"
    gzip -c /usr/share/wordnet/data.noun >"$G/wordnet/data.noun.gz"
    gzip -c /usr/share/wordnet/index.noun >"$G/wordnet/index.noun.gz"
  else
    echo "no WordNet (apt-get install wordnet-base): the noun epochs will be skipped" >&2
  fi
  local size
  size=$(du -sm "$G" | cut -f1)
  echo "$G: ${size} MiB" >&2
  if [ "$size" -ge 64 ]; then
    echo "$G is ${size} MiB: more than the 64 MiB that travel" >&2
    return 1
  fi
}

# want STEP: whether STEPS (default: all) names STEP.
want() {
  case " ${STEPS:-selftest coarse diag bench schemes peer nouns} " in
    *" $1 "*) return 0 ;;
  esac
  return 1
}

# step NAME SECONDS CMD...: runs CMD under a time limit, its output into
# the log and the results; a failure or timeout is recorded, not fatal.
step() {
  local name=$1 secs=$2
  shift 2
  echo "### $name" >>"$RES"
  echo '```' >>"$RES"
  local t0=$SECONDS
  timeout "$secs" "$@" >>"$RES" 2>>"$LOG"
  local rc=$?
  echo '```' >>"$RES"
  if [ $rc -ne 0 ]; then
    echo "($name: exit $rc after $((SECONDS - t0)) s$([ $rc -eq 124 ] && echo ', time limit'))" >>"$RES"
  fi
  echo "[$((SECONDS - START)) s] $name: exit $rc" >&2
}

run() {
  START=$SECONDS
  OUTDIR="${OUT:-$G/out}"
  mkdir -p "$OUTDIR"
  RES="$OUTDIR/gpu-results.md"
  LOG="$OUTDIR/gpu-run.log"
  : >"$RES"
  : >"$LOG"
  # GL loader libraries (the GPU machine has only the NVIDIA driver).
  if [ -d "$G/deb" ] && [ "$(id -u)" -eq 0 ] && ! [ -e /usr/lib/x86_64-linux-gnu/libEGL.so.1 ]; then
    for f in "$G"/deb/*.deb; do dpkg -x "$f" /; done
    ldconfig
  fi
  export LD_LIBRARY_PATH="$PWD/$G/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  [ -r "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES="$vendor"
  unset DISPLAY
  local B="$G/burescope"
  [ -x "$B" ] || B=./burescope
  local device
  device=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
  [ -n "$device" ] || device="no NVIDIA GPU ($(nproc) cores; GL: see the selftest lines)"
  {
    echo
    echo "## GPU run of $(date -u +%Y-%m-%d) ($(git rev-parse --short HEAD 2>/dev/null || echo 'no git'))"
    echo
    echo "Device: $device; $(nproc) CPU cores. Script: docs/experiments/gpu.sh$([ -n "${QUICK:-}" ] && echo ' (QUICK=1)')."
    echo
  } >>"$RES"
  local tl=60
  [ -n "${QUICK:-}" ] && tl=120
  # 1. Conformance.
  if want selftest; then
    for be in cpu gl gl64; do
      step "selftest --backend $be" "$tl" "$B" selftest --backend "$be"
    done
  fi
  if [ -x "$G/gpucompute.test" ] && want coarse; then
    step "float64 kernels on a coarse-double driver model" "$tl" "$G/gpucompute.test" -test.run 'CoarseDriver|Audited' -test.v
  fi
  if [ -x "$G/gpucompute.test" ] && want diag; then
    # Every float64 variant (d = 3..8, weighted, both root methods, both
    # stress kernels): which one, if any, computes in float32 here.
    step "float64 everywhere (one line per variant)" "$tl" env BURESCOPE_GPU_DIAG=1 "$G/gpucompute.test" -test.run 'Float64Everywhere|ConformanceWide|KernelsLink' -test.v
  fi
  # 2. Speed: ns per pair, stress + gradient.
  local sizes="2:40000 3:10000 5:1000 10:500 16:200"
  [ -n "${QUICK:-}" ] && sizes="2:2000 3:1000 5:200 10:100 16:60"
  local it=10
  [ -n "${QUICK:-}" ] && it=3
  for dn in $sizes; do
    want bench || break
    local d=${dn%%:*} n=${dn##*:}
    for be in gl cpu; do
      step "bench d=$d n=$n $be" 60 "$B" bench --n "$n" --dim "$d" --backend "$be" --iters "$it"
    done
  done
  # The kernels' work splits (row owner, WIDE) and, at d = 4..8, the root
  # methods (Jacobi is the default up to d = 8, Newton-Schulz above), in
  # float32 and float64, at the same sizes: which one each d runs fastest.
  if [ -x "$G/gpucompute.test" ] && want schemes; then
    step "kernel variants, ns per pair (go test -bench Schemes)" 100 "$G/gpucompute.test" -test.run '^$' -test.bench Schemes -test.benchtime 3x
  fi
  if [ "${PEER:-1}" = 0 ] || ! want peer; then
    echo "(PyTorch CUDA peer: not run)" >>"$RES"
  elif [ -r "$G/emds_cuda.py" ] && python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    # -u: every JSON line reaches the results even if a step hits its limit.
    if [ -n "${QUICK:-}" ]; then
      step "PyTorch CUDA peer" 60 python3 -u "$G/emds_cuda.py" --n 2000 --dims 2,3 --dtypes float32
    else
      # The table's sizes: d = 2 at 40,000 items, d = 3 at 10,000, d = 5 and
      # 10 at 1,000 and 500 (Newton-Schulz with autograd, the authors' method).
      step "PyTorch CUDA peer d=2" 60 python3 -u "$G/emds_cuda.py" --n 40000 --dims 2 --dtypes float32 --reps 2
      step "PyTorch CUDA peer d=3" 60 python3 -u "$G/emds_cuda.py" --n 10000 --dims 3 --dtypes float32 --reps 2
      step "PyTorch CUDA peer d=5" 40 python3 -u "$G/emds_cuda.py" --n 1000 --dims 5 --dtypes float32 --reps 3
      step "PyTorch CUDA peer d=10" 40 python3 -u "$G/emds_cuda.py" --n 500 --dims 10 --dtypes float32 --reps 3
    fi
  else
    echo "(PyTorch CUDA peer: no CUDA here)" >>"$RES"
  fi
  # 3. Hypernymy: one noun epoch at d = 5 and 10.
  if ! want nouns; then
    echo "(noun epochs: not run)" >>"$RES"
  elif [ -r "$G/wordnet/data.noun.gz" ] && [ -z "${QUICK:-}" ]; then
    local wn
    wn=$(mktemp -d)
    gunzip -c "$G/wordnet/data.noun.gz" >"$wn/data.noun"
    gunzip -c "$G/wordnet/index.noun.gz" >"$wn/index.noun"
    for d in ${NOUN_DIMS:-5 10}; do
      step "train-relations nouns d=$d, 1 epoch, --backend gl" 60 \
        "$B" train-relations "wordnet:$wn" --dim "$d" --epochs 1 --no-eval --backend gl --progress
    done
  else
    echo "(noun epochs: skipped$([ -n "${QUICK:-}" ] && echo ' in a quick run' || echo ': no WordNet prepared'))" >>"$RES"
  fi
  echo "[$((SECONDS - START)) s] done: $RES" >&2
}

case "$mode" in
  prepare) prepare ;;
  run) run ;;
  append)
    [ -r "${2:-}" ] || { echo "usage: gpu.sh append RESULTS.md" >&2; exit 2; }
    cat "$2" >>docs/gpu.md
    ;;
  *)
    echo "usage: bash docs/experiments/gpu.sh prepare|run|append FILE" >&2
    exit 2
    ;;
esac
