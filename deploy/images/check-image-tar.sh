#!/usr/bin/env bash
# Checks an image tarball written by `jib:buildTar` without a container engine: prints its manifest and run config
# (entry point, user, ports, environment, labels), unpacks its layers into a directory, and runs a command in that
# root filesystem as the image's user (chroot in private mount and PID namespaces, with the image's environment).
#
#   deploy/images/check-image-tar.sh TAR                 # java -version inside the image
#   deploy/images/check-image-tar.sh TAR --entrypoint [ARGS...]   # the image's entry point (+ ARGS), TIMEOUT (90) s at most
#   deploy/images/check-image-tar.sh TAR -- CMD [ARGS...]         # any command
#   ENV="KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:1" deploy/images/check-image-tar.sh TAR --entrypoint   # extra variables
# Needs root (chroot, unshare), python3 (JSON), GNU tar. Exit status: the command's (124 when the entry point ran TIMEOUT s).
set -euo pipefail

tar_file=${1:?usage: check-image-tar.sh TAR [--entrypoint [ARGS...] | -- CMD [ARGS...]]}
shift
[[ $(id -u) == 0 ]] || { echo "check-image-tar.sh needs root (chroot, unshare)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tributary-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xf "$tar_file" -C "$work" manifest.json
config_name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["Config"])' "$work/manifest.json")
tar -xf "$tar_file" -C "$work" "$config_name"

python3 - "$work/manifest.json" "$work/$config_name" "$tar_file" <<'EOF'
import json, os, sys
manifest = json.load(open(sys.argv[1]))[0]
config = json.load(open(sys.argv[2]))
run = config["config"]
print(f"image      {sys.argv[3]} ({os.path.getsize(sys.argv[3]) // 2**20} MB)")
print(f"tags       {manifest.get('RepoTags')}")
print(f"layers     {len(manifest['Layers'])} (diff ids: {len(config['rootfs']['diff_ids'])})")
print(f"platform   {config['os']}/{config['architecture']}")
print(f"user       {run.get('User')}")
print(f"entrypoint {run.get('Entrypoint')}")
print(f"cmd        {run.get('Cmd')}")
print(f"workdir    {run.get('WorkingDir', '/')}")
print(f"ports      {sorted(run.get('ExposedPorts', {}))}")
print(f"env        {run.get('Env')}")
for key, value in sorted(run.get("Labels", {}).items()):
    print(f"label      {key}={value}")
EOF

read_config() {
  python3 - "$work/$config_name" "$1" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))["config"]
what = sys.argv[2]
if what == "user":
    print(run.get("User") or "0:0")
elif what == "workdir":
    print(run.get("WorkingDir") or "/")
else:  # env, entrypoint, cmd: NUL-separated
    for item in run.get({"env": "Env", "entrypoint": "Entrypoint", "cmd": "Cmd"}[what]) or []:
        sys.stdout.buffer.write(item.encode() + b"\0")
EOF
}

root=$work/rootfs
mkdir -p "$root"
while IFS= read -r -d '' layer; do
  tar --warning=no-unknown-keyword -xzf <(tar -xOf "$tar_file" "$layer") -C "$root"
done < <(python3 -c 'import json,sys; sys.stdout.write("".join(l + "\0" for l in json.load(open(sys.argv[1]))[0]["Layers"]))' "$work/manifest.json")
echo "rootfs     $(du -sm "$root" | cut -f1) MB unpacked"

user=$(read_config user)
workdir=$(read_config workdir)
mapfile -d '' env < <(read_config env)
if [[ -n ${ENV:-} ]]; then read -r -a extra <<<"$ENV"; env+=("${extra[@]}"); fi
limit=()
if [[ ${1:-} == --entrypoint ]]; then
  shift
  mapfile -d '' command < <(read_config entrypoint)
  if (( $# )); then command+=("$@"); else mapfile -d "" cmd < <(read_config cmd); command+=("${cmd[@]}"); fi
  limit=(timeout "${TIMEOUT:-90}")
elif [[ ${1:-} == -- ]]; then
  shift
  command=("$@")
else
  command=(java -version)
fi
echo "run as     $user in $workdir: ${command[*]}"
set +e
"${limit[@]}" unshare --mount --pid --fork --kill-child --mount-proc="$root/proc" \
  chroot --userspec="$user" "$root" /usr/bin/env -i "${env[@]}" sh -c 'cd "$0" && exec "$@"' "$workdir" "${command[@]}"
status=$?
set -e
echo "exit status $status"
exit "$status"
