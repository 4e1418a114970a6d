/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errors.c: the messages of the modules' codes. A module names each of
 * its failures with a code and gives its reason phrase (cpulist_strerror,
 * location_strerror, ...); here the command line composes what the user
 * reads: what was given, then why, with the values and the facts the
 * caller knows. Every message is one printf format that -Wformat checks,
 * in one switch per enum without a default, so that -Wswitch names a
 * code left without words. What the user typed goes through msg_input,
 * so an echo is always one line.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "message.h"

static char words[16384];

/* The message, in words (valid until the next call). No argument may
 * point into words. */
static const char *say(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static const char *say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(words, sizeof(words), fmt, ap);
	va_end(ap);
	return words;
}

/* Reasons two codes of different modules share. */
static const char no_allowed_cpu[] = "no online CPU that the cgroup allows";
static const char no_os_index[] =
    "no OS index: give a logical index, without --physical";

/* A string that may be absent, as text. */
static const char *text_or_empty(const char *s)
{
	return s ? s : "";
}

/* "this machine" or "the topology": whose devices, nodes or CPUs. */
static const char *whose(bool this_system)
{
	return this_system ? "this machine" : "the topology";
}

/* "PUs are", "core is", "cores are": what N units are. */
static const char *units_word(bool pus, unsigned long n)
{
	if (pus)
		return n == 1 ? "PU is" : "PUs are";
	return n == 1 ? "core is" : "cores are";
}

/* --- CPU lists and masks -------------------------------------------------- */

/* The message for e, with in already escaped (it may name more than the
 * list: "1-' in '0-3 ~1-"). */
static const char *cpulist_message(const char *in,
				   const struct cpulist_error *e)
{
	const char *at = e->at ? msg_input_n(e->at, 1) : "";
	const char *why = cpulist_strerror(e->code);

	switch (e->code) {
	case CPULIST_E_EMPTY:
	case CPULIST_E_EMPTY_ITEM:
	case CPULIST_E_TRAILING_COMMA:
	case CPULIST_E_NO_START:
	case CPULIST_E_NO_END:
	case CPULIST_E_NO_STRIDE:
	case CPULIST_E_ZERO_STRIDE:
	case CPULIST_E_STRIDE_NO_RANGE:
		return say("invalid CPU list '%s': %s", in, why);
	case CPULIST_E_BAD_CHAR:
		return say("invalid CPU list '%s': unexpected '%s'", in, at);
	case CPULIST_E_REVERSED:
		return say("invalid CPU list '%s': range %lu-%lu is reversed",
			   in, e->value, e->value2);
	case CPULIST_E_TOO_LARGE:
		return say("invalid CPU list '%s': CPU %s is too large (the "
			   "limit is %d)",
			   in,
			   e->at
			       ? msg_input_n(e->at, strspn(e->at, "0123456789"))
			       : "",
			   CPULIST_MAX - 1);
	case CPULIST_E_MASK_NO_DIGITS:
	case CPULIST_E_MASK_EMPTY_WORD:
	case CPULIST_E_MASK_LONG_WORD:
	case CPULIST_E_MASK_ZERO:
		return say("invalid CPU mask '%s': %s", in, why);
	case CPULIST_E_MASK_BAD_DIGIT:
		return say("invalid CPU mask '%s': '%s' is %s", in, at, why);
	case CPULIST_E_MASK_TOO_LARGE:
		return say("invalid CPU mask '%s': it sets CPUs beyond %d", in,
			   CPULIST_MAX - 1);
	case CPULIST_OK:
	case CPULIST_E_NCODES: /* a count, not a code */
		break;
	}
	return say("invalid CPU list '%s'", in);
}

/* --- locations --------------------------------------------------------- */

/* The object an index was relative to: "the machine", "package:1", or
 * with OS indexes "package P#1". */
static void parent_name(const struct topology *t,
			const struct location_error *e, char *buf, size_t size)
{
	if (e->in_numa && e->physical)
		snprintf(buf, size, "numa P#%u", t->numa[e->parent_numa].os);
	else if (e->in_numa)
		snprintf(buf, size, "numa:%u", e->parent_numa);
	else if (e->parent >= 0 && e->physical &&
		 t->objs[e->parent].os != UINT_MAX)
		snprintf(buf, size, "%s P#%u",
			 tree_type_name(t->objs[e->parent].type),
			 t->objs[e->parent].os);
	else if (e->parent >= 0)
		location_name(t, e->parent, buf, size);
	else
		snprintf(buf, size, "the machine");
}

/* What e->suggest is, written for option: "--hot=0", "--cpus 'all ~0'",
 * or without an option "'core:0'". */
static void suggestion(const char *option, const struct location_error *e,
		       char *buf, size_t size)
{
	const char *s = msg_input(e->suggest);

	if (option && option[strlen(option) - 1] == '=')
		snprintf(buf, size, "%s%s", option, s);
	else if (option &&
		 (strpbrk(e->suggest, " ~^") || e->foreign == LOCATION_LIKWID))
		snprintf(buf, size, "%s '%s'", option, s);
	else if (option)
		snprintf(buf, size, "%s %s", option, s);
	else
		snprintf(buf, size, "'%s'", s);
}

/* A near miss of another tool's syntax, or of hwloc's spacing: the
 * message for that, or NULL. */
static const char *foreign_message(const char *in, const char *item,
				   const char *other,
				   const struct location_error *e)
{
	switch (e->foreign) {
	case LOCATION_LIKWID:
		return say("likwid-pin's %s is %s", item, other);
	case LOCATION_NUMACTL:
		return say("numactl's %s counts in the allowed set: here it "
			   "is %s",
			   item, other);
	case LOCATION_SPACED:
		return say("invalid location '%s': hwloc's '%s' goes right "
			   "before its location, without a space; did you "
			   "mean %s?",
			   in, item, other);
	case LOCATION_NATIVE:
		break;
	}
	return NULL;
}

/* The hint after a missing object: the index read in the other space. */
static void other_space(const struct location_error *e, const char *type,
			char *buf, size_t size)
{
	if (e->has_other && !e->physical)
		snprintf(buf, size,
			 "; %s P#%lu is %s:%lu (--physical reads OS indexes)",
			 type, e->value, type, e->other);
	else if (e->has_other)
		snprintf(buf, size, "; without --physical, %s:%lu is P#%lu",
			 type, e->value, e->other);
	else
		buf[0] = '\0';
}

const char *errors_spec(const char *option, const struct topology *t,
			const char *input, const struct location_error *e)
{
	char parent[64], hint[128], other[160] = "", os[80], both[600];
	const char *type = tree_type_name(e->type);
	const char *in, *item, *foreign;

	if (e->code == LOCATION_E_CPULIST && e->nelems <= 1)
		return cpulist_message(msg_input(input), &e->list);
	if (e->code == LOCATION_E_CPULIST) {
		snprintf(both, sizeof(both), "%s' in '%s",
			 msg_input_n(e->at, e->len), msg_input(input));
		return cpulist_message(both, &e->list);
	}
	in = msg_input(input);
	item = e->at ? msg_input_n(e->at, e->len) : "";
	if (e->suggest[0])
		suggestion(option, e, other, sizeof(other));
	foreign =
	    e->foreign != LOCATION_NATIVE && (e->code == LOCATION_E_TYPE ||
					      e->code == LOCATION_E_OPERATOR)
		? foreign_message(in, item, other, e)
		: NULL;
	if (foreign)
		return foreign;
	parent_name(t, e, parent, sizeof(parent));
	snprintf(os, sizeof(os), e->os_indexes[0] ? "OS indexes %s" : "none",
		 e->os_indexes);
	switch (e->code) {
	case LOCATION_E_TYPE:
		if (e->suggest[0])
			return say("invalid location '%s': unknown object type "
				   "'%s'; did you mean %s?",
				   in, item, other);
		return say("invalid location '%s': unknown object type '%s'",
			   in, item);
	case LOCATION_E_UNSUPPORTED:
		if (e->at && (*e->at == '[' || *e->at == '='))
			return say("invalid location '%s': '%s': hwloc's "
				   "filters and device names are not supported",
				   in, item);
		if (e->io)
			return say("invalid location '%s': '%s' objects are "
				   "I/O devices: --near=<device> places near "
				   "one",
				   in, item);
		return say("invalid location '%s': pinrun has no '%s' objects "
			   "(it keeps the CPU tree and the NUMA nodes)",
			   in, item);
	case LOCATION_E_NO_LEVEL:
		return say("invalid location '%s': this topology has no %s "
			   "level",
			   in, type);
	case LOCATION_E_GROUPS:
		return say("invalid location '%s': there are %lu group levels, "
			   "name one as group0..group%lu",
			   in, e->value, e->value - 1);
	case LOCATION_E_NO_INDEX:
		if (e->suggest[0])
			return say(
			    "invalid location '%s': '%s' needs an index; "
			    "did you mean %s?",
			    in, item, other);
		return say("invalid location '%s': '%s' needs an index, as in "
			   "'%s:0'",
			   in, item, item);
	case LOCATION_E_BAD_INDEX:
		return say("invalid location '%s': %s '%s'", in,
			   location_strerror(e->code), item);
	case LOCATION_E_REVERSED:
		return say("invalid location '%s': range '%s' is reversed", in,
			   item);
	case LOCATION_E_NO_SUCH:
		other_space(e, type, hint, sizeof(hint));
		if (e->physical)
			return say(
			    "invalid location '%s': %s has no %s with OS "
			    "index %lu (%s)%s",
			    in, parent, type, e->value, os, hint);
		return say("invalid location '%s': %s has no %s %lu (it has "
			   "%lu)%s",
			   in, parent, type, e->value, e->value2, hint);
	case LOCATION_E_NONE:
		if (e->physical)
			return say(
			    "invalid location '%s': '%s' names no %s (%s "
			    "has %s)",
			    in, item, type, parent, os);
		return say("invalid location '%s': '%s' names no %s (%s has "
			   "%lu)",
			   in, item, type, parent, e->value2);
	case LOCATION_E_NO_OS_INDEX:
		return say("invalid location '%s': %s objects have %s", in,
			   type, no_os_index);
	case LOCATION_E_EMPTY_STEP:
		return say("invalid location '%s': %s", in,
			   location_strerror(e->code));
	case LOCATION_E_NO_CPUS:
		if (e->nelems > 1 || !e->chain)
			return say("location '%s' names no CPU", in);
		return say("location '%s' has %s", in, no_allowed_cpu);
	case LOCATION_E_OPERATOR:
		if (e->suggest[0])
			return say(
			    "invalid location '%s': '!' is numactl's; did "
			    "you mean %s?",
			    in, other);
		return say("invalid location '%s': '%s' needs a location after "
			   "it",
			   in, item);
	case LOCATION_E_NOMEM: /* the one line, as everywhere */
		return say("%s", location_strerror(e->code));
	case LOCATION_E_CPULIST: /* above */
	case LOCATION_OK:
	case LOCATION_E_NCODES: /* a count, not a code */
		break;
	}
	return say("invalid location '%s'", in);
}

/* --- policies ------------------------------------------------------------ */

const char *errors_policy(const struct policy_error *e,
			  const struct policy_facts *f)
{
	const char *level = policy_desc(f->kind)->noun;
	const char *spec = f->spec ? msg_input(f->spec) : "";
	const char *allowed = f->allowed ? msg_cpus(f->allowed) : "";
	const char *hint =
	    f->all ? "" : " (use --all to leave the inherited mask)";

	switch (e->code) {
	case POLICY_E_NOMEM: /* the one line, as everywhere */
		return say("%s", policy_strerror(e->code));
	case POLICY_E_NOTHING:
		return say("%s: %s", f->what, policy_strerror(e->code));
	case POLICY_E_NO_LEVEL:
		return say("%s: this topology has no %s level", f->what, level);
	case POLICY_E_NO_SUCH:
		if (f->has_os_match)
			return say("%s: there is no %s %lu (the topology has "
				   "%lu); %s P#%lu is --%s=%lu (or add "
				   "--physical)",
				   f->what, level, e->value, e->value2, level,
				   e->value, policy_name(f->kind), f->os_match);
		return say("%s: there is no %s %lu (the topology has %lu)",
			   f->what, level, e->value, e->value2);
	case POLICY_E_DOMAIN_EMPTY:
		if (cpulist_empty(f->domain))
			return say("%s: %s %lu has %s", f->what, level,
				   e->value, no_allowed_cpu);
		return say("%s: no CPU of %s %lu (%s) is in the allowed set "
			   "%s%s",
			   f->what, level, e->value, msg_cpus(f->domain),
			   allowed, hint);
	case POLICY_E_TOO_MANY:
		return say("%s: only %lu %s allowed", f->what, e->value2,
			   units_word(f->smt == POLICY_SMT_ALL, e->value2));
	case POLICY_E_NOT_EXIST:
		if (f->spec && *f->spec &&
		    strspn(f->spec, "0123456789") == strlen(f->spec))
			return say("CPU %lu does not exist (%s has CPUs %s); "
				   "'%s' is read as a CPU list: taskset's mask "
				   "%s is --cpus 0x%s",
				   e->value, whose(f->this_system),
				   msg_cpus(f->complete), spec, spec, spec);
		return say("CPU %lu does not exist (%s has CPUs %s)", e->value,
			   whose(f->this_system), msg_cpus(f->complete));
	case POLICY_E_OFFLINE:
		if (!f->this_system)
			return say("CPU %lu is offline or disallowed in the "
				   "topology (usable: %s)",
				   e->value, msg_cpus(f->usable));
		if (f->offline)
			return say("CPU %lu is offline", e->value);
		return say("CPU %lu is not in this cgroup's cpuset %s",
			   e->value, msg_cpus(f->usable));
	case POLICY_E_NOT_ALLOWED:
		return say("CPU %lu is not in the allowed set %s%s", e->value,
			   allowed, hint);
	case POLICY_E_HOT_NOT_ONE:
		return say("%s: '%s' names %lu CPUs; --hot takes exactly one",
			   f->what, spec, e->value);
	case POLICY_E_CURRENT:
		return say("%s: the current CPU %lu is not in the allowed set "
			   "%s",
			   f->what, e->value, allowed);
	case POLICY_E_NOT_UNDER:
		return say("%s: CPU %lu, where pinrun runs, is under no %s",
			   f->what, e->value, level);
	case POLICY_E_NONE_ALLOWED:
		return say("%s: no %s has a CPU in the allowed set %s", f->what,
			   level, allowed);
	case POLICY_OK:
	case POLICY_E_NCODES: /* a count, not a code */
		break;
	}
	return say("%s: failed", f->what);
}

const char *errors_physical(const struct index_facts *f)
{
	const char *level = policy_desc(f->kind)->noun;
	char hint[128] = "";

	if (f->no_os)
		return say("%s: %ss have %s", f->what, level, no_os_index);
	if (f->has_other)
		snprintf(hint, sizeof(hint),
			 "; without --physical, %s %lu is OS index %lu", level,
			 f->value, f->other);
	return say("%s: there is no %s with OS index %lu (OS indexes %s)%s",
		   f->what, level, f->value, f->os_list, hint);
}

/* --- --share ---------------------------------------------------------------
 */

const char *errors_launcher(const char *spec, const struct launcher_error *e,
			    bool pus)
{
	const char *in = msg_input(spec);
	const char *var = text_or_empty(e->var);
	const char *var2 = text_or_empty(e->var2);
	const char *value = e->value ? msg_input(e->value) : "";
	const char *value2 = e->value2 ? msg_input(e->value2) : "";

	switch (e->code) {
	case LAUNCHER_E_SYNTAX:
		return say("invalid --share value '%s': %s", in,
			   launcher_strerror(e->code));
	case LAUNCHER_E_TOO_LARGE:
		return say("invalid --share value '%s': %s is over %lu", in,
			   !strcmp(var, "I") ? "the part number"
					     : "the number of parts",
			   LAUNCHER_MAX);
	case LAUNCHER_E_RANGE:
		if (!e->number2)
			return say(
			    "invalid --share value '%s': N counts from 1", in);
		return say("invalid --share: part %lu of %lu (%s)", e->number,
			   e->number2, launcher_strerror(e->code));
	case LAUNCHER_E_NONE:
	case LAUNCHER_E_NO_SLOT:
		return say("--share %s: %s", in, launcher_strerror(e->code));
	case LAUNCHER_E_BAD_VALUE:
		return say("--share %s: invalid %s '%s': %s", in, var, value,
			   launcher_why_strerror(e->why));
	case LAUNCHER_E_MISSING:
		return say("--share %s: %s is set, but not %s", in, var, var2);
	case LAUNCHER_E_BEYOND:
		if (!strstr(var2, "TASKS_PER_NODE"))
			return say("--share %s: %s=%s is not below %s=%s", in,
				   var, value, var2, value2);
		if (!strcmp(var, "SLURM_NODEID"))
			return say("--share %s: %s=%s is not below the %lu "
				   "nodes of %s=%s",
				   in, var, value, e->number2, var2, value2);
		return say("--share %s: %s=%s is not below this node's %lu "
			   "tasks (%s=%s)",
			   in, var, value, e->number2, var2, value2);
	case LAUNCHER_E_NOMEM:
		return say("%s", launcher_strerror(e->code));
	case LAUNCHER_E_TOO_MANY:
		return say("--share %lu/%lu: only %lu %s allowed%s", e->number,
			   e->number2, e->units, units_word(pus, e->units),
			   pus ? "" : " (--smt shares PUs instead)");
	case LAUNCHER_OK:
	case LAUNCHER_E_NCODES: /* a count, not a code */
		break;
	}
	return say("--share %s: failed", in);
}

/* --- topologies ---------------------------------------------------------- */

/* What hwloc could not make sense of, by the kind of source. */
static const char *invalid_source(enum topo_source_kind kind)
{
	switch (kind) {
	case TOPO_SRC_LIVE:
		return "hwloc could not read it";
	case TOPO_SRC_XML:
		return "not an hwloc XML topology";
	case TOPO_SRC_SYNTHETIC:
		return "not a valid synthetic description";
	case TOPO_SRC_FSROOT:
		return "not a saved sysfs tree";
	case TOPO_SRC_NKINDS: /* a count, never a source */
		break;
	}
	return topo_strerror(TOPO_E_INVALID);
}

/* Why the topology could not be had, into buf. */
static void topo_reason(const struct topo_error *e, enum topo_source_kind kind,
			char *buf, size_t size)
{
	const char *sys = e->sys ? strerror(e->sys) : "";

	switch (e->code) {
	case TOPO_E_SYSTEM:
		snprintf(buf, size, "%s", sys);
		return;
	case TOPO_E_INVALID:
		snprintf(buf, size, "%s", invalid_source(kind));
		return;
	case TOPO_E_LIBRARY:
		snprintf(buf, size, "%s (%s)", topo_strerror(e->code), sys);
		return;
	case TOPO_E_TIMEOUT:
		snprintf(buf, size, "%s after %d seconds",
			 topo_strerror(e->code), TOPO_LOAD_LIMIT_S);
		return;
	case TOPO_E_TOO_LARGE:
		snprintf(buf, size,
			 "%s (at most %d CPUs, numbered below %d, and %d "
			 "children per object)",
			 topo_strerror(e->code), CPULIST_MAX, CPULIST_MAX,
			 TOPO_MAX_ARITY);
		return;
	case TOPO_E_NOMEM:
	case TOPO_E_ENV:
	case TOPO_E_CRASHED:
	case TOPO_E_DUP_PU:
	case TOPO_E_NESTED:
		snprintf(buf, size, "%s", topo_strerror(e->code));
		return;
	case TOPO_OK:
	case TOPO_E_NCODES: /* a count, not a code */
		break;
	}
	buf[0] = '\0';
}

/* Whether a file's name says it is a tar archive, as hwloc-gather-topology
 * saves a sysfs tree (NAME.tar.bz2). */
static bool tar_name(const char *arg)
{
	static const char *const ends[] = { ".tar",    ".tar.bz2", ".tbz2",
					    ".tar.gz", ".tgz",	   ".tar.xz",
					    ".tar.zst" };
	size_t len = arg ? strlen(arg) : 0;

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (len > strlen(ends[i]) &&
		    !strcmp(arg + len - strlen(ends[i]), ends[i]))
			return true;
	return false;
}

const char *errors_topo(const struct topo_error *e, enum topo_source_kind kind,
			const char *arg, const char *env_var)
{
	const char *in = arg ? msg_input(arg) : "";
	char why[256];

	if (e->code == TOPO_E_NOMEM) /* the one line, as everywhere */
		return say("%s", topo_strerror(e->code));
	topo_reason(e, kind, why, sizeof(why));
	if (env_var)
		return say("cannot read the topology that %s names ('%s'): %s",
			   env_var, in, why);
	if (kind == TOPO_SRC_LIVE)
		return say("cannot read this machine's topology: %s", why);
	if (e->code == TOPO_E_INVALID && kind == TOPO_SRC_XML && tar_name(arg))
		return say("cannot read topology '%s': a tar archive, as "
			   "hwloc-gather-topology saves a sysfs tree: extract "
			   "it (mkdir topo && tar -xf '%s' -C topo) and give "
			   "--topology the folder it holds (topo/NAME)",
			   in, in);
	return say("cannot read topology '%s': %s", in, why);
}

/* --- devices (--near) ---------------------------------------------------- */

/* Where an OS device is: under its PCI device, or at its object. */
static void device_place(const struct topology *t, int dev, char *buf,
			 size_t size)
{
	if (t->devs[dev].busid[0] && t->devs[dev].type != TOPO_DEV_PCI)
		snprintf(buf, size, "pci=%s", t->devs[dev].busid);
	else
		location_name(t, t->devs[dev].attach, buf, size);
}

const char *errors_devices(const char *spec, const struct topology *t,
			   const struct devices_error *e)
{
	const char *in = msg_input(spec);
	const char *machine = whose(t && t->this_system);
	/* A cached table may miss a device plugged in since. */
	const char *hint = t && t->this_system ? " that hwloc finds" : "";
	const char *kind = e->pci ? "PCI " : "";
	char some[512] = "", a[64] = "", b[64] = "";

	switch (e->code) {
	case DEVICES_E_EMPTY:
		if (e->pci)
			return say("invalid --near value '%s': no PCI bus id "
				   "after 'pci='",
				   in);
		return say("invalid --near value '%s': %s", in,
			   devices_strerror(e->code));
	case DEVICES_E_BAD_PCI:
		return say("invalid --near value '%s': %s", in,
			   devices_strerror(e->code));
	case DEVICES_E_UNKNOWN:
		if (t)
			devices_some(t, e->pci != 0, 8, some, sizeof(some));
		if (t && !some[0])
			return say("unknown %sdevice '%s': %s has no %s "
				   "device%s",
				   kind, in, machine, e->pci ? "PCI" : "I/O",
				   hint);
		/* Names come from the topology: escaped like input. */
		return say("unknown %sdevice '%s': %s has %s", kind, in,
			   machine, msg_input(some));
	case DEVICES_E_AMBIGUOUS:
		if (t && e->first >= 0 && e->second >= 0 &&
		    (unsigned)e->first < t->ndevs &&
		    (unsigned)e->second < t->ndevs) {
			device_place(t, e->first, a, sizeof(a));
			device_place(t, e->second, b, sizeof(b));
		}
		if (e->pci)
			return say("PCI device '%s' is ambiguous: %s has two, "
				   "under %s and %s",
				   in, machine, a, b);
		return say("device name '%s' is ambiguous: %s has two, under "
			   "%s and %s: name the one meant as pci=<bus id>",
			   in, machine, a, b);
	case DEVICES_OK:
	case DEVICES_E_NCODES: /* a count, not a code */
		break;
	}
	return say("--near %s: failed", in);
}

/* --- memory nodes (--mem) ------------------------------------------------ */

const char *errors_memory(const char *arg, const struct topology *t,
			  const struct memory_error *e)
{
	const char *in = msg_input(arg);
	const char *item = e->at ? msg_input_n(e->at, e->len) : "";
	const char *machine = whose(t && t->this_system);
	char some[512] = "";
	struct cpuset nodes;

	switch (e->code) {
	case MEMORY_E_EMPTY:
		return say("invalid --mem value '%s': %s", in,
			   memory_strerror(e->code));
	case MEMORY_E_ITEM:
		if (!e->len)
			return say("invalid --mem value '%s': empty item", in);
		return say("invalid --mem value '%s': '%s' is %s", in, item,
			   memory_strerror(e->code));
	case MEMORY_E_REVERSED:
		return say("invalid --mem value '%s': range %lu-%lu is "
			   "reversed",
			   in, e->value, e->value2);
	case MEMORY_E_TOO_LARGE:
		return say(
		    "invalid --mem value '%s': node %s is too large (the "
		    "limit is %d)",
		    in, item, MEMORY_MAX_NODES - 1);
	case MEMORY_E_NO_NODE:
		if (t) {
			memory_all(t, &nodes);
			cpulist_format(&nodes, some, sizeof(some));
		}
		return say("--mem=%s: %s has no NUMA node %lu (its nodes: %s)",
			   in, machine, e->value, some);
	case MEMORY_E_NO_KIND:
		if (t && !memory_kinds(t, some, sizeof(some)))
			return say("--mem=%s: no NUMA node of %s is of kind "
				   "'%s' (its nodes have no kind)",
				   in, machine, item);
		return say("--mem=%s: no NUMA node of %s is of kind '%s' (its "
			   "kinds: %s)",
			   in, machine, item, some);
	case MEMORY_OK:
	case MEMORY_E_NCODES: /* a count, not a code */
		break;
	}
	return say("--mem=%s: failed", in);
}

/* --- follow mode ---------------------------------------------------------- */

const char *errors_follow(const struct follow_start *st,
			  const struct follow_facts *f)
{
	const char *why = follow_strerror(st->why);
	const char *sys = st->err ? strerror(st->err) : "";

	switch (st->why) {
	case FOLLOW_TRACED:
		return say("pinrun is being traced by pid %d (%s)",
			   (int)st->tracer, f->comm ? f->comm : "?");
	case FOLLOW_DENIED:
		if (f->seccomp_mode == 2)
			return say("%s by a seccomp filter", why);
		if (f->yama_scope >= 2)
			return say("%s by Yama (ptrace_scope %d)", why,
				   f->yama_scope);
		return say("%s: %s", why, sys);
	case FOLLOW_NO_SEIZE:
		return say("%s", why);
	case FOLLOW_NO_HELPER:
		if (st->err == EAGAIN && f->nproc_limit >= 0)
			return say("%s: the user's process limit (RLIMIT_NPROC "
				   "%lld, %lld running) has no room for its %u "
				   "processes and one of the command's",
				   why, f->nproc_limit, f->nproc_running,
				   f->nproc_needs);
		return say("%s: %s", why, sys);
	case FOLLOW_OK:
	case FOLLOW_NCODES: /* a count, not a code */
		break;
	}
	return say("%s", why);
}
