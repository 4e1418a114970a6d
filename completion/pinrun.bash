# bash completion for pinrun(1)                            -*- shell-script -*-
#
# Installed as .../bash-completion/completions/pinrun. It uses
# bash-completion's helpers where they are loaded (_init_completion,
# _filedir, _pids, _command_offset) and plain compgen where they are not.

# The words as the shell read them: COMP_WORDS is also split at '=' and ':',
# so glue back what no blank separates. words[k] is the k-th word, at[k] its
# first index in COMP_WORDS (what _command_offset counts in), cword the
# word under the cursor.
_pinrun_words()
{
    local i w line=$COMP_LINE

    words=()
    at=()
    cword=0
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        if ((i > 1)) && [[ $line != [[:blank:]]* ]]; then
            words[-1]+=$w
        else
            words+=("$w")
            at+=("$i")
        fi
        line=${line#*"$w"}
        if ((i == COMP_CWORD)); then
            cword=$((${#words[@]} - 1))
        fi
    done
}

# Is word $1 option $2? getopt_long takes any unambiguous prefix, and
# "--c", "--m", "--p", "--t" already are for the options asked about here.
_pinrun_is()
{
    [[ ${#1} -ge 3 && $2 == "$1"* ]]
}

# Does word $1 take the next word as its argument?
_pinrun_takes_arg()
{
    case $1 in
        *=*) return 1 ;;
        -c | -[nhV]*c) return 0 ;;
    esac
    [[ ${#1} -ge 4 && --near == "$1"* ]] && return 0
    _pinrun_is "$1" --cpus || _pinrun_is "$1" --mem ||
        _pinrun_is "$1" --pid || _pinrun_is "$1" --topology ||
        _pinrun_is "$1" --report || _pinrun_is "$1" --share ||
        _pinrun_is "$1" --kind
}

_pinrun_reply()
{
    mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur")
}

_pinrun_pids()
{
    if declare -F _pids >/dev/null; then
        _pids
    else
        local d pids=()

        for d in /proc/[0-9]*; do
            pids+=("${d#/proc/}")
        done
        _pinrun_reply "${pids[*]}"
    fi
}

_pinrun_files()
{
    if declare -F _filedir >/dev/null; then
        _filedir
    else
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    if declare -F __ltrim_colon_completions >/dev/null; then
        __ltrim_colon_completions "$cur"
    fi
}

# The values of --near and --mem come from pinrun's own map of the machine
# (pinrun --list --json), or of the --topology given before the cursor:
# device names and PCI bus ids, memory policies with node numbers and
# kinds. Entries are cut at the last ':' of the word where ':' breaks
# words, as bash then replaces only what follows it.
_pinrun_map()
{
    local i topo=()

    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --topology=*) topo=(--topology "${words[i]#*=}") ;;
            --topology) topo=(--topology "${words[i + 1]}") ;;
        esac
    done
    "${words[0]}" --list --json "${topo[@]}" 2>/dev/null | sed 's/},{/}\n{/g'
}

_pinrun_device_values()
{
    _pinrun_reply "$(_pinrun_map | sed -n \
        -e 's/.*"name":"","type":"pci","subtype":"[^"]*","pci":"\([^"]*\)".*/pci=\1/p' \
        -e 's/.*"name":"\([^"\\]\{1,\}\)","type".*/\1/p')"
}

_pinrun_mem_values()
{
    local mode v list=()

    if [[ $cur != *:* ]]; then
        _pinrun_reply "bind interleave preferred local bind: interleave: preferred:"
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *: ]] &&
            compopt -o nospace 2>/dev/null
        return
    fi
    mode=${cur%%:*}
    while read -r v; do
        list+=("$mode:$v")
    done < <({
        echo all
        _pinrun_map | sed -n 's/.*"node":\([0-9]*\),"bytes":[0-9]*,"kind":"\([^"\\]*\)".*/\1 \2/p'
    } | tr ' ' '\n' | tr '[:upper:]' '[:lower:]' | sed '/^$/d' | sort -u)
    _pinrun_reply "${list[*]}"
    [[ $COMP_WORDBREAKS == *:* ]] && COMPREPLY=("${COMPREPLY[@]#"${cur%:*}:"}")
    colon_cut=true
}

# Complete the command that starts at word $1, as if it stood alone.
_pinrun_command()
{
    if declare -F _command_offset >/dev/null; then
        _command_offset "${at[$1]}"
    elif (($1 == cword)); then
        mapfile -t COMPREPLY < <(compgen -c -- "$cur")
    else
        compopt -o default 2>/dev/null
        COMPREPLY=()
    fi
}

_pinrun()
{
    local cur prev words cword split=false at colon_cut=false

    if declare -F _init_completion >/dev/null; then
        _init_completion -s -n : || return
        _pinrun_words
    else
        _pinrun_words
        cur=${words[cword]}
        prev=${words[cword - 1]}
        if [[ $cur == --*=* ]]; then
            prev=${cur%%=*}
            cur=${cur#*=}
            split=true
        fi
    fi

    # Walk the words before the cursor: pinrun's options end at the first
    # word that is not one (the command, or --show's pid) or after "--".
    local i w policy=false show=false
    for ((i = 1; i < cword; i++)); do
        w=${words[i]}
        if [[ $w == -- ]]; then
            _pinrun_command $((i + 1))
            return
        fi
        if [[ $w != -* ]]; then
            if $show; then
                COMPREPLY=() # --show takes one pid, then nothing
            else
                _pinrun_command "$i"
            fi
            return
        fi
        case $w in
            -c* | -[nhV]*c* | --hot | --hot=* | --same-chip | --same-chip=* | \
                --same-numa | --same-numa=* | --same-cache | \
                --same-cache=* | --spread | --spread=* | --cpus | --cpus=*)
                policy=true
                ;;
            --show)
                show=true
                ;;
        esac
        if _pinrun_takes_arg "$w"; then
            ((i++))
        fi
    done

    # The argument of an option: --opt=value, or --opt value.
    if $split || _pinrun_takes_arg "$prev"; then
        case $prev in
            --hot | --same-chip | --same-numa | --same-cache)
                _pinrun_reply "current idle"
                ;;
            --follow)
                _pinrun_reply "strict"
                ;;
            --spread | -c | -[nhV]*c)
                COMPREPLY=()
                ;;
            *)
                if [[ ${#prev} -ge 4 && --near == "$prev"* ]]; then
                    _pinrun_device_values
                elif _pinrun_is "$prev" --mem; then
                    _pinrun_mem_values
                elif _pinrun_is "$prev" --kind; then
                    _pinrun_reply "fast slow any"
                elif _pinrun_is "$prev" --share; then
                    _pinrun_reply "auto 1/2 2/2"
                elif _pinrun_is "$prev" --topology || _pinrun_is "$prev" --report; then
                    _pinrun_files
                elif _pinrun_is "$prev" --pid; then
                    _pinrun_pids
                else
                    COMPREPLY=()
                fi
                ;;
        esac
        # Where '=' does not break words, the word being replaced is the
        # whole "--opt=value".
        if $split && [[ $COMP_WORDBREAKS != *=* ]] && ! $colon_cut; then
            COMPREPLY=("${COMPREPLY[@]/#/$prev=}")
        fi
        return
    fi

    if [[ $cur == -* ]]; then
        local opts

        if $show; then
            opts="--json"
        else
            opts="--smt --no-smt --all --mem= --near= --list --dry-run -n --explain --json
                --follow --follow= -f --threads --wait-all --report --share
                --kind= --topology --no-cache --pid --show --help -h
                --version -V --"
            if ! $policy; then
                opts+=" --hot --hot= --same-chip --same-chip= --same-numa
                    --same-numa= --same-cache --same-cache= --spread
                    --spread= --cpus -c"
            fi
        fi
        _pinrun_reply "$opts"
        if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]]; then
            compopt -o nospace 2>/dev/null
        fi
        return
    fi

    # Not an option: --show's pid, or the command.
    if $show; then
        _pinrun_pids
    else
        _pinrun_command "$cword"
    fi
} &&
    complete -F _pinrun pinrun

# ex: filetype=sh
