# SPDX-License-Identifier: MIT
# bash completion for gttlab (installed as /usr/share/bash-completion/completions/gttlab): commands,
# their options, the global options, check and suite names for --run (from `gttlab check --list`,
# which touches no device), device strings for --device (sim:PLATFORM from `gttlab info
# --platforms`, which opens none), platform names for --platform, formats for --format.

_gttlab_words() {
	# the checks and their suites, once per shell
	if [ -z "${_gttlab_checks:-}" ]; then
		_gttlab_checks=$("$1" check --list 2>/dev/null | awk '{ print $1; print $2 }' | sort -u | tr '\n' ' ')
		_gttlab_platforms=$("$1" info --platforms 2>/dev/null | awk '$1 ~ /^[a-z]+$/ { print $1 }' | tr '\n' ' ')
		_gttlab_models=$("$1" info --platforms 2>/dev/null | awk '/ sim:[a-z]/ { print $1 }' | tr '\n' ' ')
	fi
}

_gttlab() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd="" i
	local globals="--device --json --allow-i915 --mmio-seed --sysfs-root --journal --help --version"
	local commands="check info encode decode dump snapshot dom0 restore"
	_gttlab_words "${COMP_WORDS[0]}"
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--device | --mmio-seed | --sysfs-root | --journal) ((i++)) ;;
		-*) ;;
		*) [ -z "$cmd" ] && cmd=${COMP_WORDS[i]} ;;
		esac
	done
	case $prev in
	--device)
		local p devs="auto sim vgpu:sim pci:"
		for p in $_gttlab_models; do devs+=" sim:$p vgpu:sim:$p"; done
		COMPREPLY=($(compgen -W "$devs" -- "$cur"))
		return ;;
	--run)
		# a comma list: complete its last word
		local head=${cur%,*} last=${cur##*,}
		[ "$head" = "$cur" ] && head="" || head+=","
		COMPREPLY=($(compgen -P "$head" -W "$_gttlab_checks" -- "$last"))
		return ;;
	--platform) COMPREPLY=($(compgen -W "$_gttlab_platforms" -- "$cur")); return ;;
	--format) COMPREPLY=($(compgen -W "human tap junit igt-json" -- "$cur")); return ;;
	--tiling) COMPREPLY=($(compgen -W "x y" -- "$cur")); return ;;
	--wait) COMPREPLY=($(compgen -W "busy sleep hybrid" -- "$cur")); return ;;
	--mmio-seed | --journal | -o | --trace | --svg | snapshot | run) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--sysfs-root | --dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	esac
	local words
	case $cmd in
	"") words="$commands $globals" ;;
	check) words="--list --run --format -o --seed --help" ;;
	info) words="--platforms --help" ;;
	encode) words="pte fence --platform --cache --edram --start --size --stride --tiling --help" ;;
	decode) words="pte fence --platform --help" ;;
	dump) words="ggtt fences --start --end --help" ;;
	dom0) words="run serve --trace --svg --quiet --dir --guests --mem --low --high --fences --wait --spin-us --switch --migrate --exit-after --help" ;;
	restore) words="--journal --help" ;;
	*) words="--help" ;;
	esac
	COMPREPLY=($(compgen -W "$words $globals" -- "$cur"))
}
complete -F _gttlab gttlab
