# bash completion for pinrun(1)                            -*- shell-script -*-
# SPDX-License-Identifier: BSD-3-Clause
#
# Installed as .../bash-completion/completions/pinrun. It uses
# bash-completion's helpers where they are loaded (_init_completion,
# _filedir, _pids, _command_offset) and plain compgen where they are not.
# The values of --cpus, --hot=, --same-*= and --spread= come from the
# machine pinrun sees (pinrun --cpus all --json, on the --topology given
# before the cursor): its CPUs, object types and indexes. Options that
# conflict with one already given, or repeat one, are not offered.

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

# Every long option, as --help lists them.
_pinrun_options="--hot --same-chip --same-numa --same-cache --spread --cpus
    --smt --no-smt --all --physical --near --mem --dry-run --emit --tell --explain --json
    --topology --follow --threads --wait-all --report --share --kind
    --no-cache --pid --tid --quiet --show --list --help --version"
_pinrun_policies="--hot --same-chip --same-numa --same-cache --spread --cpus"

# The long option word $1 stands for (getopt_long takes any unambiguous
# prefix, and the short forms), or nothing.
_pinrun_long()
{
    local w=${1%%=*} o found=

    case $w in
        -c | -[nfqhV]*c) echo --cpus && return ;;
        -n) echo --dry-run && return ;;
        -f) echo --follow && return ;;
        -q) echo --quiet && return ;;
        -h) echo --help && return ;;
        -V) echo --version && return ;;
        --?*) ;;
        *) return ;;
    esac
    for o in $_pinrun_options; do
        if [[ $o == "$w" ]]; then
            echo "$o"
            return
        fi
        if [[ $o == "$w"* ]]; then
            [[ -z $found ]] || return # ambiguous
            found=$o
        fi
    done
    [[ -z $found ]] || echo "$found"
}

# Does word $1 take the next word as its argument?
_pinrun_takes_arg()
{
    case $1 in
        *=*) return 1 ;;
        -c | -[nfqhV]*c) return 0 ;;
        -*) ;;
        *) return 1 ;;
    esac
    case $(_pinrun_long "$1") in
        --cpus | --near | --mem | --pid | --tid | --topology | --report | \
            --share | --kind | --emit) return 0 ;;
    esac
    return 1
}

# What each option rules out (pinrun's rules[]; policies rule out each
# other; each option rules out itself).
_pinrun_conflicts()
{
    case $1 in
        --show) echo "$_pinrun_options" ;;
        --hot | --same-chip | --same-numa | --same-cache) echo "$_pinrun_policies --show" ;;
        --spread) echo "$_pinrun_policies --physical --show" ;;
        --cpus) echo "$_pinrun_policies --smt --no-smt --show" ;;
        --smt | --no-smt) echo "--smt --no-smt --cpus --show" ;;
        --pid | --tid) echo "--pid --tid --follow --threads --wait-all --report --mem --topology --show --list --emit --tell" ;;
        --list) echo "--list --pid --tid --dry-run --follow --threads --wait-all --report --show --emit --tell" ;;
        --follow) echo "$1 --pid --tid --show --list --emit" ;;
        --threads | --wait-all | --report) echo "$1 --pid --tid --show --list" ;;
        --emit) echo "$1 --json --pid --tid --follow --show --list --tell" ;;
        --tell) echo "$1 --pid --tid --show --list --emit" ;;
        --dry-run) echo "$1 --show --list" ;;
        --mem | --topology) echo "$1 --pid --tid --show" ;;
        --physical) echo "--physical --spread --show" ;;
        --help | --version) echo "$_pinrun_options" ;;
        --json) echo "$1 --emit" ;;
        *) echo "$1 --show" ;;
    esac
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

# Every thread id (each process's tasks).
_pinrun_tids()
{
    local d tids=()

    for d in /proc/[0-9]*/task/[0-9]*; do
        tids+=("${d##*/}")
    done
    _pinrun_reply "${tids[*]}"
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
    _pinrun_reply "gpu $(_pinrun_map | sed -n \
        -e 's/.*"name":"","type":"pci","subtype":"[^"]*","pci":"\([^"]*\)".*/pci=\1/p' \
        -e 's/.*"name":"\([^"\\]\{1,\}\)","type".*/\1/p')"
}

# --tell's families, comma-separated: those not yet in the list.
_pinrun_tell_values()
{
    local f head='' list=()

    [[ $cur == *,* ]] && head=${cur%,*},
    for f in omp blas go java rust build gpu python erlang tools view all; do
        [[ ,$head == *",$f,"* ]] || list+=("$head$f")
    done
    _pinrun_reply "${list[*]}"
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

# The machine pinrun sees, from its own plan of every CPU: m_cpus (a list,
# "0-3,8"), m_nodes (NUMA nodes' OS numbers) and m_count[TYPE] for
# package, numa, l3, core, pu. Uses the --topology (and --all) given
# before the cursor. Returns 1 when pinrun cannot say.
_pinrun_machine()
{
    local i json args=() k

    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --topology=*) args+=(--topology "${words[i]#*=}") ;;
            --all) args+=(--all) ;;
            *)
                [[ $(_pinrun_long "${words[i]}") == --topology ]] &&
                    args+=(--topology "${words[i + 1]}")
                ;;
        esac
    done
    json=$("${words[0]}" --cpus all --json "${args[@]}" 2>/dev/null) || return 1
    m_cpus=$(sed -n 's/.*"cpus":"\([^"]*\)".*/\1/p' <<<"$json")
    m_nodes=$(sed -n 's/.*"numa":"\([^"]*\)".*/\1/p' <<<"$json")
    m_count=()
    for k in packages:package numa_nodes:numa l3:l3 cores:core pus:pu; do
        m_count[${k#*:}]=$(sed -n "s/.*\"${k%:*}\":\([0-9]*\).*/\1/p" <<<"$json")
    done
    [[ -n $m_cpus ]]
}

# The numbers of a list ("0-3,8"), blank-separated.
_pinrun_expand()
{
    local item out=() n
    local IFS=,

    for item in $1; do
        for ((n = ${item%-*}; n <= ${item#*-}; n++)); do
            out+=("$n")
        done
    done
    IFS=' '
    echo "${out[*]}"
}

# 0 .. $1-1.
_pinrun_upto()
{
    local n out=()

    for ((n = 0; n < $1; n++)); do
        out+=("$n")
    done
    echo "${out[*]}"
}

# Words end with ':' (a type) or '.': no space after them.
_pinrun_nospace_if_open()
{
    [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[:.] ]] &&
        compopt -o nospace 2>/dev/null
}

# Where ':' breaks words, bash replaces only what follows the last ':' of
# the word: cut what precedes it from each reply.
_pinrun_colon_cut()
{
    local head

    if [[ $COMP_WORDBREAKS == *:* && $cur == *:* ]]; then
        head=${cur%"${cur##*:}"}
        COMPREPLY=("${COMPREPLY[@]#"$head"}")
        colon_cut=true
    fi
}

# A CPU specification: CPU numbers, then the machine's object types and
# their indexes, step by step ("package:1.core:"). $1 adds words for the
# bare value (current idle for --hot).
_pinrun_spec()
{
    local m_cpus m_nodes head step type parent n list i
    local -A m_count

    _pinrun_machine || return 0
    if [[ $cur == [0-9]* && $cur != *[:.]* ]]; then
        _pinrun_reply "$(_pinrun_expand "$m_cpus")"
        return
    fi
    head=
    [[ $cur == *.* ]] && head=${cur%.*}.
    step=${cur##*.}
    if [[ $step == *:* ]]; then
        type=${step%%:*}
        case $type in
            pack* | sock*) type=package ;;
            nu* | no*) type=numa ;;
            l3*) type=l3 ;;
            co*) type=core ;;
            pu) type=pu ;;
        esac
        n=${m_count[$type]:-0}
        # Inside an object: as many as each of those holds.
        if [[ -n $head ]]; then
            parent=${head%:*}
            parent=${parent##*.}
            case $parent in
                pack* | sock*) parent=package ;;
                nu* | no*) parent=numa ;;
                l3*) parent=l3 ;;
                co*) parent=core ;;
            esac
            if ((${m_count[$parent]:-0} > 0)); then
                n=$(((n + ${m_count[$parent]} - 1) / ${m_count[$parent]}))
            fi
        fi
        list=
        for i in $(_pinrun_upto "$n") all odd even; do
            list+=" $head${step%%:*}:$i"
        done
        _pinrun_reply "$list"
        _pinrun_colon_cut
        return
    fi
    list=
    for type in package numa l3 core pu; do
        ((${m_count[$type]:-0} > 0)) && list+=" $head$type:"
    done
    [[ -n $head ]] || list+=" all $1"
    _pinrun_reply "$list"
    _pinrun_nospace_if_open
    _pinrun_colon_cut
}

# The index of --same-chip/numa/cache=: current, idle, and the objects
# (OS node numbers with --physical).
_pinrun_domain()
{
    local m_cpus m_nodes type=$1 physical=false i
    local -A m_count

    for ((i = 1; i < cword; i++)); do
        [[ $(_pinrun_long "${words[i]}") == --physical ]] && physical=true
    done
    _pinrun_machine || {
        _pinrun_reply "current idle"
        return
    }
    if $physical && [[ $type == numa ]]; then
        _pinrun_reply "current idle $(_pinrun_expand "$m_nodes")"
    else
        _pinrun_reply "current idle $(_pinrun_upto "${m_count[$type]:-0}")"
    fi
}

# Complete the command that starts at word $1, as if it stood alone: with
# its own completion (pinrun-compare's, say) when it has one.
_pinrun_command()
{
    local spec func

    if declare -F _command_offset >/dev/null; then
        _command_offset "${at[$1]}"
        return
    fi
    if (($1 == cword)); then
        mapfile -t COMPREPLY < <(compgen -c -- "$cur")
        return
    fi
    spec=$(complete -p "${words[$1]}" 2>/dev/null)
    func=$(sed -n 's/.* -F \([^ ]*\) .*/\1/p' <<<"$spec")
    if [[ -n $func ]] && declare -F "$func" >/dev/null; then
        local COMP_WORDS=("${COMP_WORDS[@]:${at[$1]}}")
        local COMP_CWORD=$((COMP_CWORD - ${at[$1]}))
        local COMP_LINE=${COMP_LINE#*"${words[$1]}"}
        COMP_LINE=${words[$1]}$COMP_LINE
        local COMP_POINT=${#COMP_LINE}
        "$func" "${words[$1]}" "${COMP_WORDS[COMP_CWORD]}" \
            "${COMP_WORDS[COMP_CWORD - 1]}"
        return
    fi
    compopt -o default 2>/dev/null
    COMPREPLY=()
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
    local i w long show=false
    local -A given=()
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
        long=$(_pinrun_long "$w")
        [[ $long == --show ]] && show=true
        [[ -n $long ]] && given[$long]=1
        # A cluster of short options: -nc 3.
        [[ $w == -[nfq]* && $w != -[nfq] ]] && given[$(_pinrun_long "-${w:1:1}")]=1
        if _pinrun_takes_arg "$w"; then
            ((i++))
        fi
    done

    # The argument of an option: --opt=value, or --opt value.
    if $split || _pinrun_takes_arg "$prev"; then
        case $(_pinrun_long "$prev") in
            --hot) _pinrun_spec "current idle" ;;
            --cpus) _pinrun_spec ;;
            --same-chip) _pinrun_domain package ;;
            --same-numa) _pinrun_domain numa ;;
            --same-cache) _pinrun_domain l3 ;;
            --spread)
                local m_cpus m_nodes
                local -A m_count
                _pinrun_machine && _pinrun_reply "$(_pinrun_upto $((${m_count[core]:-0} + 1)) | cut -d' ' -f2-)"
                ;;
            --follow) _pinrun_reply "strict" ;;
            --tell) _pinrun_tell_values ;;
            --mem) _pinrun_mem_values ;;
            --near) _pinrun_device_values ;;
            --kind) _pinrun_reply "fast slow any" ;;
            --emit)
                # The formats, as pinrun --help lists them.
                _pinrun_reply "$("${words[0]}" --help 2>/dev/null |
                    sed -n '/^<format> for --emit:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')"
                ;;
            --share) _pinrun_reply "auto auto/2 1/2 2/2" ;;
            --topology | --report) _pinrun_files ;;
            --pid) _pinrun_pids ;;
            --tid) _pinrun_tids ;;
            *) COMPREPLY=() ;;
        esac
        # Where '=' does not break words, the word being replaced is the
        # whole "--opt=value".
        if $split && [[ $COMP_WORDBREAKS != *=* ]] && ! $colon_cut; then
            COMPREPLY=("${COMPREPLY[@]/#/$prev=}")
        fi
        return
    fi

    if [[ $cur == -* ]]; then
        local o opts='' excluded=" "

        for o in "${!given[@]}"; do
            excluded+="$(_pinrun_conflicts "$o") "
        done
        excluded=${excluded//$'\n'/ }
        # A short form goes with its long one; options that take an
        # optional value are offered with '=' too.
        for o in $_pinrun_options --; do
            [[ $excluded == *" $o "* ]] && continue
            case $o in
                --hot | --same-chip | --same-numa | --same-cache | --spread | \
                    --follow | --tell) opts+=" $o $o=" ;;
                --mem | --kind | --near | --emit) opts+=" $o=" ;;
                *) opts+=" $o" ;;
            esac
            case $o in
                --cpus) opts+=" -c" ;;
                --dry-run) opts+=" -n" ;;
                --follow) opts+=" -f" ;;
                --quiet) opts+=" -q" ;;
                --help) opts+=" -h" ;;
                --version) opts+=" -V" ;;
            esac
        done
        if $show; then
            opts=''
            [[ -n ${given[--json]:-} ]] || opts=--json
            [[ -n ${given[--pid]:-} ]] || opts+=" --pid"
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
