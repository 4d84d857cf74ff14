#!/usr/bin/env bash
# Burescope developer entry point: installs what a fresh Debian/Ubuntu
# machine lacks, then builds, runs or tests.
#
#   bash .ci/dev.sh run    # open the app on the built-in PISA 2015 data
#   bash .ci/dev.sh test   # the whole test suite (what CI runs)
#   bash .ci/dev.sh build  # just build ./burescope
#
# Needs: apt-get (as root) for the C libraries of cgo/GLFW/Fyne and Xvfb;
# when not root it prints the exact apt-get command and stops. Go is taken
# from PATH when it is >= the go.mod version, else its toolchain module
# (golang.org/toolchain) is downloaded into ~/.cache/burescope/go from the
# Go module proxy: the first entry of $GOPROXY, else of `go env GOPROXY`
# of any installed (older) go, else of the Go of the distribution's
# packages (golang-go, installed for this when run as root); when none
# names a proxy it asks for one ($GOPROXY).
set -euo pipefail
cd "$(dirname "$0")/.."

GO_WANT=1.26.8   # toolchain downloaded when no suitable go is installed
GO_MIN=1.26      # go.mod's go directive
APT_PKGS="ca-certificates curl unzip gcc libc6-dev pkg-config libgl1-mesa-dev libegl-dev
  libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev
  libxkbcommon-dev xvfb xauth libgl1-mesa-dri libegl-mesa0 libglx-mesa0
  wordnet-base python3-xlib"

log() { printf '\033[1m[burescope]\033[0m %s\n' "$*" >&2; }

need_apt() {
  local missing=()
  for p in $APT_PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local cmd="apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    log "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=900 update -qq
    $cmd >/dev/null
  else
    log "missing system packages; run this as root, then again:"
    echo "  sudo apt-get update && sudo $cmd" >&2
    exit 1
  fi
}

version_ge() { # version_ge 1.26.8 1.24 -> true
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

# go_proxy prints the module proxy to fetch the toolchain from: the first
# entry of GOPROXY (the environment's, else an installed go's, else that
# of the distribution's own Go package); it fails, asking for one, when
# none names a proxy.
go_proxy() {
  local p="${GOPROXY:-}" g
  if [ -z "$p" ]; then
    for g in "$@"; do
      [ -n "$g" ] && [ -x "$g" ] || continue
      p=$("$g" env GOPROXY 2>/dev/null || true)
      [ -n "$p" ] && break
    done
  fi
  if [ -z "$p" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    log "asking the distribution's Go (golang-go) for its module proxy"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends golang-go >/dev/null 2>&1 || true
    for g in /usr/lib/go/bin/go /usr/bin/go; do
      [ -x "$g" ] || continue
      p=$("$g" env GOPROXY 2>/dev/null || true)
      [ -n "$p" ] && break
    done
  fi
  p="${p%%[,|]*}"
  case "$p" in
    off) log "GOPROXY is off: install Go >= $GO_MIN yourself"; return 1 ;;
    ""|direct) log "no Go module proxy known: set GOPROXY (e.g. the one your Go installation uses) and run again"; return 1 ;;
  esac
  printf '%s\n' "${p%/}"
}

need_go() {
  local cache="${HOME:-/root}/.cache/burescope"
  local gos=("$(command -v go 2>/dev/null || true)" /usr/local/go/bin/go "$cache/go/bin/go")
  for g in "${gos[@]}"; do
    [ -n "$g" ] && [ -x "$g" ] || continue
    local v; v=$("$g" env GOVERSION 2>/dev/null | sed 's/^go//')
    if [ -n "$v" ] && version_ge "$v" "$GO_MIN"; then
      export PATH="$(dirname "$g"):$PATH"; return 0
    fi
  done
  local proxy; proxy=$(go_proxy "${gos[@]}")
  log "downloading Go $GO_WANT from the Go module proxy $proxy"
  local arch; arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
  local url="$proxy/golang.org/toolchain/@v/v0.0.1-go${GO_WANT}.linux-${arch}.zip"
  local tmp; tmp=$(mktemp -d)
  curl -fsSL "$url" -o "$tmp/go.zip"
  (cd "$tmp" && unzip -q go.zip)
  mkdir -p "$cache"; rm -rf "$cache/go"
  mv "$tmp/golang.org/toolchain@v0.0.1-go${GO_WANT}.linux-${arch}" "$cache/go"
  chmod +x "$cache/go/bin/"* "$cache/go/pkg/tool/"*/* 2>/dev/null || true
  rm -rf "$tmp"
  export PATH="$cache/go/bin:$PATH"
}

setup() {
  need_apt
  need_go
  export GOTOOLCHAIN=local CGO_ENABLED=1
  log "$(go version)"
  go mod download
}

build() {
  log "building ./burescope (the first build compiles Fyne and GLFW: several minutes)"
  go build -o burescope .
}

cmd_test() {
  log "gofmt"
  local bad; bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
  if [ -n "$bad" ]; then echo "gofmt would change:" >&2; echo "$bad" >&2; exit 1; fi
  log "go vet, go mod tidy"
  go vet ./...
  go mod tidy -diff
  build
  log "go test (under Xvfb so the OpenGL backend and the GUI are tested for real)"
  # BURESCOPE_REQUIRE_GL: the GL tests fail instead of skipping when no
  # context comes up, so a broken Mesa install cannot pass silently.
  export BURESCOPE_REQUIRE_GL=1
  xvfb-run -a -s "-screen 0 1600x1000x24" go test -count=1 -timeout 30m ./...
  log "GL backend without a display (EGL surfaceless)"
  env -u DISPLAY go test -count=1 ./gpucompute/
  if [ -x .ci/e2e.sh ]; then
    log "end-to-end: the real app under Xvfb"
    .ci/e2e.sh "$(mktemp -d)"
  fi
  if [ -x .ci/e2e-drop.sh ]; then
    log "end-to-end: real XDND drops onto the app under Xvfb"
    .ci/e2e-drop.sh "$(mktemp -d)"
  fi
  if [ -x .ci/e2e-prefs.sh ]; then
    log "end-to-end: ten app runs, the preference file and no Preferences error"
    .ci/e2e-prefs.sh "$(mktemp -d)"
  fi
  log "all tests passed"
}

case "${1:-}" in
  run)   setup; build; shift; exec ./burescope "$@" ;;
  test)  setup; cmd_test ;;
  build) setup; build ;;
  *) echo "usage: bash .ci/dev.sh run|test|build" >&2; exit 2 ;;
esac
