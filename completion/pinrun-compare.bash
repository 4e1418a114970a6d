# bash completion for pinrun-compare(1)                    -*- shell-script -*-
# SPDX-License-Identifier: BSD-3-Clause
#
# Installed as .../bash-completion/completions/pinrun-compare. It uses
# bash-completion's helpers where they are loaded (_filedir,
# _command_offset) and plain compgen where they are not. It reads
# COMP_WORDS as bash splits them: where COMP_WORDBREAKS has '=', as it
# does by default, --format=csv is the three words --format, = and csv.

# Does option $1, as typed, take the next word as its value?
_pinrun_compare_takes_value()
{
    case $1 in
        -[nwpbmo] | --runs | --warmup | --placement | --baseline | \
            --prepare | --cleanup | --metric | --timeout | \
            --fail-if-slower | --max-rounds | --max-time | --format | \
            --output | --export-csv | --export-json | --export-markdown | \
            --plot | --from)
            return 0
            ;;
    esac
    return 1
}

# The words of $1 (one a line) that begin with $cur.
_pinrun_compare_reply()
{
    mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur")
}

# Files; with $1, only those ending in .$1 (and directories).
_pinrun_compare_files()
{
    if declare -F _filedir >/dev/null; then
        _filedir "$@"
        return
    fi
    compopt -o filenames 2>/dev/null
    if [[ -n ${1-} ]]; then
        mapfile -t COMPREPLY < <(compgen -d -- "$cur"
            compgen -f -X "!*.$1" -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}

# The placements given with -p before the cursor, unquoted, one a line;
# the default ones when there are none.
_pinrun_compare_placements()
{
    local i w given=false

    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -p | --placement)
                w=${COMP_WORDS[i + 1]}
                [[ $w == = ]] && w=${COMP_WORDS[i + 2]}
                ;;
            -p?*) w=${COMP_WORDS[i]#-p} ;;
            --placement=?*) w=${COMP_WORDS[i]#--placement=} ;;
            *) continue ;;
        esac
        w=${w#[\'\"]}
        w=${w%[\'\"]}
        [[ -n $w ]] && given=true && printf '%s\n' "$w"
    done
    $given || printf '%s\n' none hot same-chip spread
}

# The value of option $prev.
_pinrun_compare_value()
{
    local p q

    case $prev in
        -p | --placement)
            _pinrun_compare_reply "none auto hot same-chip same-numa
                same-cache spread cpus"
            ;;
        -b | --baseline)
            # Not compgen -W, which would take the quotes away.
            COMPREPLY=()
            while IFS= read -r p; do
                q=$p
                [[ $p == *[[:blank:]]* ]] && q="'$p'"
                if [[ $q == "$cur"* || $p == "$cur"* ]]; then
                    COMPREPLY+=("$q")
                fi
            done < <(_pinrun_compare_placements)
            ;;
        --format)
            _pinrun_compare_reply "table markdown csv json"
            ;;
        -m | --metric | --prepare | --cleanup)
            mapfile -t COMPREPLY < <(compgen -c -- "$cur")
            ;;
        --from | --export-csv)
            _pinrun_compare_files csv
            ;;
        --plot)
            _pinrun_compare_files svg
            ;;
        -o | --output | --export-json | --export-markdown)
            _pinrun_compare_files
            ;;
        *)
            COMPREPLY=() # a number
            ;;
    esac
}

# Complete the command that starts at COMP_WORDS[$1], as if it stood alone.
_pinrun_compare_command()
{
    if declare -F _command_offset >/dev/null; then
        _command_offset "$1"
    elif (($1 == COMP_CWORD)); then
        mapfile -t COMPREPLY < <(compgen -c -- "$cur")
    else
        compopt -o default 2>/dev/null
        COMPREPLY=()
    fi
}

_pinrun_compare()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local value=false split=false i w

    if [[ $cur == = ]]; then # --format=
        cur=
        value=true
    elif [[ $prev == = ]] && ((COMP_CWORD >= 2)); then # --format=m
        prev=${COMP_WORDS[COMP_CWORD - 2]}
        value=true
    elif [[ $cur == --*=* ]]; then # no '=' in COMP_WORDBREAKS
        prev=${cur%%=*}
        cur=${cur#*=}
        value=true
        split=true
    fi

    # pinrun-compare's options end at the first word that is not one (the
    # command) or after "--".
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if [[ $w == -- ]]; then
            _pinrun_compare_command $((i + 1))
            return
        elif [[ $w == -* && ${COMP_WORDS[i + 1]} == = ]]; then
            ((i += 2)) # --option=value
        elif [[ $w != -* ]]; then
            _pinrun_compare_command "$i"
            return
        elif _pinrun_compare_takes_value "$w"; then
            ((i++))
        fi
    done

    if $value || _pinrun_compare_takes_value "$prev"; then
        if _pinrun_compare_takes_value "$prev"; then
            _pinrun_compare_value
        else
            COMPREPLY=() # --quiet=
        fi
        if $split; then
            COMPREPLY=("${COMPREPLY[@]/#/$prev=}")
        fi
        return
    fi

    if [[ $cur == -* ]]; then
        _pinrun_compare_reply "-n --runs -w --warmup -p --placement -b
            --baseline --prepare --cleanup -m --metric --higher-is-better
            --timeout -i --ignore-status --fail-if-slower --sequential
            --max-rounds --max-time --format --wide -o
            --output --export-csv --export-json --export-markdown --plot -q
            --quiet --from -h --help -V --version --"
        return
    fi
    _pinrun_compare_command "$COMP_CWORD"
} &&
    complete -F _pinrun_compare pinrun-compare

# ex: filetype=sh
