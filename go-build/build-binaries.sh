#!/usr/bin/env bash
# Builds etcd, kube-apiserver with kube-controller-manager, helm (for the chart tests), Gitea (the Git
# forge of the SCM provider and pull request tests) and, from Argo CD's module, argocd-render (Argo CD's own
# ApplicationSet code, the reference of the differential tests) with Argo CD's unchanged ApplicationSet
# controller and repo-server and the git credential helper of its `argocd` binary (the side-by-side benchmark),
# from their Go modules into a version-keyed cache outside the repository, once per machine.
#   build-binaries.sh [etcd] [kube] [helm] [gitea] [argocd]     the parts to build or find (none named: all five)
# Progress goes to stderr (every 20 s during a build); the last lines on stdout are KEY=path pairs of the
# parts asked for, which the test environment reads.
set -euo pipefail

parts=" ${*:-etcd kube helm gitea argocd} "
for part in $parts; do
  case $part in etcd | kube | helm | gitea | argocd) ;; *) echo "build-binaries: unknown part '$part' (etcd, kube, helm, gitea or argocd)" >&2; exit 2 ;; esac
done
wanted() { [[ $parts == *" $1 "* ]]; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
k8s_version=$(awk '$1 == "require" && $2 == "k8s.io/kubernetes" {print $3}' "$here/kube-build/go.mod")
etcd_version=$(awk '$1 == "require" && $2 == "go.etcd.io/etcd/server/v3" {print $3}' "$here/etcd-build/go.mod")
helm_version=$(awk '$1 == "require" && $2 == "helm.sh/helm/v3" {print $3}' "$here/helm-build/go.mod")
gitea_version=$(awk '$1 == "require" && $2 == "code.gitea.io/gitea" {print $3}' "$here/gitea-build/go.mod")
# Argo CD's module is required on a line of its own or inside the require block.
argocd_version=$(awk '($1 == "require" && $2 == "github.com/argoproj/argo-cd/v3") {print $3} ($1 == "github.com/argoproj/argo-cd/v3") {print $2}' \
  "$here/argocd-render/go.mod" | head -n 1)
[ -n "$argocd_version" ] || { echo "build-binaries: no github.com/argoproj/argo-cd/v3 version in argocd-render/go.mod" >&2; exit 1; }
[ -n "$gitea_version" ] || { echo "build-binaries: no code.gitea.io/gitea version in gitea-build/go.mod" >&2; exit 1; }
[ -n "$helm_version" ] || { echo "build-binaries: no helm version in helm-build/go.mod" >&2; exit 1; }
[ -n "$k8s_version" ] || { echo "build-binaries: no k8s.io/kubernetes version in kube-build/go.mod" >&2; exit 1; }
[ -n "$etcd_version" ] || { echo "build-binaries: no etcd version in etcd-build/go.mod" >&2; exit 1; }

cache=${APPSET_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/appset-controller/bin}
go_version=$(go env GOVERSION)
kube_dir="$cache/kubernetes-$k8s_version-$go_version"
etcd_dir="$cache/etcd-$etcd_version-$go_version"
helm_dir="$cache/helm-$helm_version-$go_version"
gitea_dir="$cache/gitea-$gitea_version-$go_version"
# argocd-render is this repository's own code around Argo CD's, so its key also hashes that code: an edit rebuilds.
argocd_source_hash=$(cd "$here/argocd-render" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) | LC_ALL=C sort |
  xargs sha256sum | sha256sum | cut -c1-12)
argocd_dir="$cache/argocd-render-$argocd_version-$go_version-$argocd_source_hash"

log() { echo "build-binaries: $*" >&2; }

# One build at a time per cache: a second clone (or CI) waits here and then finds the binaries built. A caller
# whose parts are all built already does not wait (a test run needing etcd and kube need not wait for Argo
# CD's build); a finished folder is moved into place whole, so its .complete marker means it is all there.
wanted_dirs() {
  if wanted etcd; then echo "$etcd_dir"; fi
  if wanted kube; then echo "$kube_dir"; fi
  if wanted helm; then echo "$helm_dir"; fi
  if wanted gitea; then echo "$gitea_dir"; fi
  if wanted argocd; then echo "$argocd_dir"; fi
}
all_built() {
  local dir
  for dir in $(wanted_dirs); do [ -f "$dir/.complete" ] || return 1; done
}
mkdir -p "$cache"
if ! all_built; then
  exec 9>"$cache/.lock"
  if ! flock -n 9; then
    log "another build holds $cache/.lock; waiting for it"
    flock 9
  fi
fi

# build_into DIR MODULE_DIR LDFLAGS PKG... builds each package into DIR, atomically, if DIR is missing.
# GO_TAGS and CGO (default 0) apply to the build; AFTER_BUILD names a function run with the new folder.
build_into() {
  local dir=$1 module_dir=$2 ldflags=$3; shift 3
  if [ -f "$dir/.complete" ]; then
    log "cached: $dir"
    return
  fi
  local tmp="$dir.tmp.$$"
  rm -rf "$tmp"; mkdir -p "$tmp"
  for pkg in "$@"; do
    local name=${pkg##*/}
    [ "$name" = v3 ] && name=etcd
    log "building $name from $pkg (a cold build takes minutes)"
    local start=$SECONDS next=$((SECONDS + 20))
    (cd "$module_dir" && CGO_ENABLED=${CGO:-0} go build -trimpath -tags "${GO_TAGS:-}" -ldflags "$ldflags" -o "$tmp/$name" "$pkg") &
    local pid=$!
    # A cold build is minutes of Go's own silence: say which build runs and for how long.
    while kill -0 "$pid" 2>/dev/null; do
      sleep 1
      if [ "$SECONDS" -ge "$next" ]; then
        log "still building $name: $((SECONDS - start)) s"
        next=$((SECONDS + 20))
      fi
    done
    wait "$pid" || { log "building $name failed after $((SECONDS - start)) s"; exit 1; }
    log "built $name in $((SECONDS - start)) s"
  done
  if [ -n "${AFTER_BUILD:-}" ]; then "$AFTER_BUILD" "$tmp" "$module_dir"; fi
  touch "$tmp/.complete"
  rm -rf "$dir"; mkdir -p "$(dirname "$dir")"; mv "$tmp" "$dir"
}

minor=$(echo "$k8s_version" | cut -d. -f2)
build_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
kube_ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  kube_ldflags+=" -X $pkg.gitVersion=$k8s_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  kube_ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$build_date"
done

if wanted etcd; then build_into "$etcd_dir" "$here/etcd-build" "-s -w" go.etcd.io/etcd/server/v3; fi
if wanted kube; then
  build_into "$kube_dir" "$here/kube-build" "$kube_ldflags" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager
fi

# As helm's Makefile does: its version, and the Kubernetes version `helm template` and `helm lint` assume
# (from the client-go it is built with; without these it assumes v1.20).
client_go_minor=$(awk '$1 == "k8s.io/client-go" {print $2}' "$here/helm-build/go.mod" | cut -d. -f2)
[ -n "$client_go_minor" ] || { echo "build-binaries: no k8s.io/client-go in helm-build/go.mod" >&2; exit 1; }
helm_ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$helm_version"
for pkg in helm.sh/helm/v3/pkg/chartutil helm.sh/helm/v3/pkg/lint/rules; do
  helm_ldflags+=" -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$client_go_minor"
done
if wanted helm; then build_into "$helm_dir" "$here/helm-build" "$helm_ldflags" helm.sh/helm/v3/cmd/helm; fi

# Gitea with SQLite (cgo, so gcc) and no embedded assets: its locale, templates and public files are
# copied from the module beside the binary, where STATIC_ROOT_PATH points.
copy_gitea_assets() {
  local gitea_src
  gitea_src=$(cd "$2" && go list -m -f '{{.Dir}}' code.gitea.io/gitea)
  cp -r "$gitea_src/options" "$gitea_src/templates" "$gitea_src/public" "$1/"
  chmod -R u+w "$1"
}
if wanted gitea; then
  CGO=1 GO_TAGS="sqlite sqlite_unlock_notify" AFTER_BUILD=copy_gitea_assets build_into "$gitea_dir" "$here/gitea-build" \
    "-s -w -X main.Version=${gitea_version#v}" code.gitea.io/gitea
fi

# Argo CD's version as its Makefile stamps it (shown by the tool's Argo CD code in logs and user agents).
argocd_ldflags="-s -w -X github.com/argoproj/argo-cd/v3/common.version=${argocd_version#v} -X github.com/argoproj/argo-cd/v3/common.buildDate=$build_date"
if wanted argocd; then
  build_into "$argocd_dir" "$here/argocd-render" "$argocd_ldflags" \
    ./cmd/argocd-render ./cmd/argocd-applicationset-controller ./cmd/argocd-repo-server ./cmd/argocd
  # Each edit of the tool makes a new folder (about 100 MB); the older ones are never used again.
  for old in "$cache"/argocd-render-*; do
    if [ "$old" != "$argocd_dir" ] && [[ $old != *.tmp.* ]]; then rm -rf "$old"; fi
  done
fi

if wanted etcd; then echo "ETCD_BIN=$etcd_dir/etcd"; fi
if wanted kube; then
  echo "KUBE_APISERVER_BIN=$kube_dir/kube-apiserver"
  echo "KUBE_CONTROLLER_MANAGER_BIN=$kube_dir/kube-controller-manager"
fi
if wanted helm; then echo "HELM_BIN=$helm_dir/helm"; fi
if wanted gitea; then echo "GITEA_BIN=$gitea_dir/gitea"; fi
if wanted argocd; then
  echo "ARGOCD_RENDER_BIN=$argocd_dir/argocd-render"
  echo "ARGOCD_APPSET_CONTROLLER_BIN=$argocd_dir/argocd-applicationset-controller"
  echo "ARGOCD_REPO_SERVER_BIN=$argocd_dir/argocd-repo-server"
  echo "ARGOCD_GIT_ASKPASS_BIN=$argocd_dir/argocd"
fi
