#!/usr/bin/env bash
# Builds the base image of the service images from Debian packages, without a Docker daemon or a container registry:
#   debootstrap --variant=minbase bookworm + openjdk-17-jre-headless + curl (the compose health checks use it),
#   stripped (no apt, no docs, no man pages, no locales), written as a docker-archive tarball
#   (manifest.json + config json + one layer tar, the format of `docker save`), which Jib reads with
#   <from><image>tar:///path</image></from> (docs/deploy.md, "Container images").
#
# Usage: deploy/images/build-base-image.sh [OUTPUT_TAR]
#   OUTPUT_TAR defaults to ${TRIBUTARY_BASE_IMAGE:-$HOME/.cache/tributary/jre17-base.tar}, the path the poms use.
#   Idempotent: does nothing when OUTPUT_TAR exists (delete it, or set REBUILD=1, to rebuild).
# Needs: root (debootstrap, chroot), a Debian mirror, and the packages debootstrap, tar, coreutils
#   (apt-get install -y debootstrap). The mirror is the machine's own: the repositories apt is configured with for
#   $SUITE and $SUITE-security (apt-get indextargets, so both sources.list and deb822 .sources files count), or
#   MIRROR / SECURITY_MIRROR when given. No host name is built in: without either the script stops and says so.
set -euo pipefail

out=${1:-${TRIBUTARY_BASE_IMAGE:-$HOME/.cache/tributary/jre17-base.tar}}
suite=${SUITE:-bookworm}
# The first configured repository (URI) that serves the given release, from the machine's apt configuration.
apt_repository_for() {
  command -v apt-get >/dev/null || return 0
  apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 2>/dev/null | awk -v r="$1" '$1 == r {print $2; exit}'
}
mirror=${MIRROR:-$(apt_repository_for "$suite")}
security_mirror=${SECURITY_MIRROR:-$(apt_repository_for "$suite-security")}
if [[ -z $mirror ]]; then
  echo "build-base-image.sh: no Debian mirror for $suite: this machine's apt has no repository for it;" \
    "set MIRROR to the Debian mirror to use (the URI of its debian archive)" >&2
  exit 1
fi
if [[ -z $security_mirror ]]; then
  echo "build-base-image.sh: no repository for $suite-security in this machine's apt configuration;" \
    "set SECURITY_MIRROR (the image would otherwise miss security updates)" >&2
  exit 1
fi
mirror=${mirror%/}
security_mirror=${security_mirror%/}
arch=$(dpkg --print-architecture)
# The uid/gid the service images run as (the poms' <user>, the k8s securityContext). Given a passwd entry so tools
# that look the user up (whoami, the JVM's user.name) see a name; the JVM does not need a home directory.
app_uid=${APP_UID:-65532}

if [[ -s $out && ${REBUILD:-0} != 1 ]]; then
  echo "base image exists: $out (REBUILD=1 to rebuild)"
  exit 0
fi
if [[ $(id -u) != 0 ]]; then
  echo "build-base-image.sh needs root (debootstrap and chroot)" >&2
  exit 1
fi
command -v debootstrap >/dev/null || { echo "debootstrap not found: apt-get install -y debootstrap" >&2; exit 1; }

start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/tributary-base.XXXXXX")
trap 'umount "$work/rootfs/proc" 2>/dev/null || true; rm -rf "$work"' EXIT
root=$work/rootfs

echo "debootstrap $suite ($arch) from $mirror ..."
debootstrap --variant=minbase --arch="$arch" --include=openjdk-17-jre-headless,curl,ca-certificates \
  "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || { tail -30 "$work/debootstrap.log" >&2; exit 1; }

# Security updates of the JRE and libraries, then drop what the image does not need at run time.
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security_mirror $suite-security main
EOF
umount "$root/proc" 2>/dev/null || true   # debootstrap may leave its /proc mounted
mount -t proc proc "$root/proc"
chroot "$root" apt-get -q update >"$work/update.log" 2>&1
DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get -q -y upgrade >>"$work/update.log" 2>&1
chroot "$root" java -version 2>&1 | head -1
umount "$root/proc"

# No package manager in the image: apt goes (dpkg stays, it is Essential and keeps the package list for scanners).
DEBIAN_FRONTEND=noninteractive chroot "$root" dpkg --purge apt >/dev/null 2>&1 || true
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/lintian \
  "$root"/var/log/* "$root"/tmp/* "$root"/root/.??* 2>/dev/null || true
# Parts of the JDK package a JRE never uses: the symbol table of javac (ct.sym) and the class-data-sharing archive for
# heaps over 32 GB without compressed oops (the heaps here are far smaller).
rm -f "$root"/usr/lib/jvm/java-17-openjdk-*/lib/ct.sym "$root"/usr/lib/jvm/java-17-openjdk-*/lib/server/classes_nocoops.jsa
find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} + 2>/dev/null || true
chmod 1777 "$root/tmp"
if ! grep -q ":$app_uid:" "$root/etc/passwd"; then
  echo "tributary:x:$app_uid:$app_uid:Tributary:/nonexistent:/usr/sbin/nologin" >>"$root/etc/passwd"
  echo "tributary:x:$app_uid:" >>"$root/etc/group"
fi

# (absolute symlinks inside the root filesystem would resolve against the host's /, so no readlink -f here)
java_home=$(cd "$root" && ls -d usr/lib/jvm/java-17-openjdk-* | head -1)
java_home=/$java_home
[[ -x $root$java_home/bin/java ]] || { echo "no java in the root filesystem ($java_home)" >&2; exit 1; }
jre_version=$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$root$java_home/release")

if grep -q " $root/" /proc/mounts; then
  echo "file systems still mounted under $root:" >&2; grep " $root/" /proc/mounts >&2; exit 1
fi

# docker-archive: one uncompressed layer, reproducible order and times, numeric owners.
mkdir -p "$work/image"
tar --sort=name --numeric-owner --mtime=@0 --xattrs --one-file-system -C "$root" -cf "$work/image/layer.tar" .
diff_id=$(sha256sum "$work/image/layer.tar" | cut -d' ' -f1)
created=1970-01-01T00:00:00Z
cat >"$work/image/config.json" <<EOF
{"architecture":"$arch","os":"linux","created":"$created",
 "config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin","JAVA_HOME=$java_home","LANG=C.UTF-8"],
  "User":"$app_uid:$app_uid","Cmd":["java","-version"],
  "Labels":{"org.opencontainers.image.title":"Tributary JRE base","org.opencontainers.image.base.name":"debian:$suite (debootstrap minbase)","org.tributary.jre.version":"$jre_version"}},
 "rootfs":{"type":"layers","diff_ids":["sha256:$diff_id"]},
 "history":[{"created":"$created","created_by":"deploy/images/build-base-image.sh: debootstrap $suite minbase + openjdk-17-jre-headless $jre_version + curl"}]}
EOF
config_id=$(sha256sum "$work/image/config.json" | cut -d' ' -f1)
mv "$work/image/config.json" "$work/image/$config_id.json"
printf '[{"Config":"%s.json","RepoTags":["tributary/jre17-base:%s"],"Layers":["layer.tar"]}]\n' \
  "$config_id" "$jre_version" >"$work/image/manifest.json"

mkdir -p "$(dirname "$out")"
tar --sort=name --mtime=@0 --owner=0 --group=0 -C "$work/image" -cf "$out.tmp" manifest.json "$config_id.json" layer.tar
mv "$out.tmp" "$out"
echo "base image: $out ($(du -m "$out" | cut -f1) MB, JRE $jre_version, JAVA_HOME=$java_home) in $(( $(date +%s) - start )) s"
